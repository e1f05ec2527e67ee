import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { encryptionKeyFrom, newEncryptionKey } from '@giro/transfer-module/persistence';

/** Where sandbox mode keeps the encryption key it made, beside its database: the next start reads the same. */
export const SANDBOX_ENCRYPTION_KEY_FILE = 'data/sandbox-encryption.key';

/**
 * Sandbox mode's ENCRYPTION_KEY when none is set: the one kept in `path`, or a new one written there (owner-only)
 * when the file is missing. Kept, not made at each start, because the secrets of the sandbox's database stay
 * sealed with it. A real deployment sets ENCRYPTION_KEY: a key beside the data protects nothing.
 */
export function sandboxEncryptionKey(path: string): { key: string; made: boolean } {
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (encryptionKeyFrom(key) === undefined) {
      throw new Error(`${path} does not hold an encryption key (base64 of 32 bytes): delete it to have one made`);
    }
    return { key, made: false };
  }
  const key = newEncryptionKey();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return { key, made: true };
}
