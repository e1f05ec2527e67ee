import { HttpStatus } from '@nestjs/common';
import { windows1252CodeOf } from '../shared/office/windows-1252';
import { BatchRefusedError } from './batch-errors';

export type BatchTextEncoding = 'UTF-8' | 'windows-1252';

/**
 * A CSV file's text, decoded exactly: bytes that are valid UTF-8 are read as UTF-8 (a byte-order mark dropped),
 * else as Windows-1252 (what Excel in Spanish saves as "CSV (delimitado por comas)"). A UTF-8 file is almost never
 * valid by accident in another encoding, so the order cannot misread a 1252 file of Spanish text; a byte defined in
 * neither (0x81, 0x8D, 0x8F, 0x90, 0x9D outside valid UTF-8) refuses the file naming its line — never replaced.
 */
export function decodeBatchText(bytes: Uint8Array): { text: string; encoding: BatchTextEncoding } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

function decodeWindows1252(bytes: Uint8Array): string {
  const codes = new Array<number>(bytes.length);
  let line = 1;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 0x0a) line++;
    const code = windows1252CodeOf(byte);
    if (code === null) {
      const hex = `0x${byte.toString(16).toUpperCase()}`;
      throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
        field: 'body',
        rule: 'encoding',
        params: { row: line, byte: hex, expected: ['UTF-8', 'windows-1252'] },
        message: `has byte ${hex} on line ${line}, which is neither UTF-8 nor Windows-1252: save the file as "CSV UTF-8"`,
      });
    }
    codes[at] = code;
  }
  let text = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let at = 0; at < codes.length; at += 8192) text += String.fromCharCode(...codes.slice(at, at + 8192));
  return text;
}
