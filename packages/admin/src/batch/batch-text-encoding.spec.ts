import { BatchRefusedError } from './batch-errors';
import { decodeBatchText } from './batch-text-encoding';

const latin = (text: string) => Buffer.from(text, 'latin1');

describe('decodeBatchText', () => {
  it('reads valid UTF-8 as UTF-8, a byte-order mark dropped', () => {
    expect(decodeBatchText(Buffer.from('seña depósito Peña', 'utf8'))).toEqual({
      text: 'seña depósito Peña',
      encoding: 'UTF-8',
    });
    expect(decodeBatchText(Buffer.from('\uFEFFa;b', 'utf8')).text).toBe('a;b');
  });

  it('reads anything else as Windows-1252, every character exact', () => {
    expect(decodeBatchText(latin('se\xf1a dep\xf3sito Pe\xf1a'))).toEqual({
      text: 'seña depósito Peña',
      encoding: 'windows-1252',
    });
    // 0x80–0x9F are 1252's own characters, not Latin-1's control codes.
    expect(decodeBatchText(Buffer.from([0x80, 0x20, 0x93, 0x41, 0x94, 0x20, 0x96, 0x20, 0x9f])).text).toBe('€ “A” – Ÿ');
    const every = Buffer.from(
      Array.from({ length: 256 }, (_, byte) => byte).filter((b) => ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b)),
    );
    const text = decodeBatchText(every).text;
    expect(text).toHaveLength(251);
    expect(text).not.toContain('\uFFFD');
  });

  it.each([0x81, 0x8d, 0x8f, 0x90, 0x9d])('refuses byte 0x%s, undefined in 1252, naming its line', (byte) => {
    const bytes = Buffer.concat([latin('header\r\nse\xf1a\r\nok '), Buffer.from([byte])]);
    try {
      decodeBatchText(bytes);
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(BatchRefusedError);
      expect((error as BatchRefusedError).violations[0]).toMatchObject({
        field: 'body',
        rule: 'encoding',
        params: { row: 3, byte: `0x${byte.toString(16).toUpperCase()}` },
      });
    }
  });
});
