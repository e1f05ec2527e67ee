import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { GiroError } from '../domain';

// A secret giro stores (a webhook endpoint's signing secret) is sealed with AES-256-GCM before it is written:
// `v1:<keyId>:<iv>:<tag>:<ciphertext>`, base64url, the key id naming the key it was sealed with, so that a
// rotation can tell what is left to re-encrypt and a missing key is said by its id. A value without the prefix
// is a secret written in clear before encryption was configured: read as it is, and sealed at start.

const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** A stored secret that cannot be decrypted: its key is not among those given, or the value was altered. */
export class SecretUnreadableError extends GiroError {
  override readonly name = 'SecretUnreadableError';

  constructor(
    readonly keyId: string,
    why: string,
  ) {
    super('SECRET_UNREADABLE', `a stored secret sealed with key ${keyId} cannot be decrypted: ${why}`);
  }

  override answerFields() {
    return { keyId: this.keyId };
  }
}

/** A 32-byte key, and the id its sealed values carry (derived from it: no key material, stable across processes). */
export interface EncryptionKey {
  id: string;
  bytes: Buffer;
}

/** The key of `base64` (32 bytes); undefined when it is not one, for the caller to name its option or variable. */
export function encryptionKeyFrom(base64: string): EncryptionKey | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== KEY_BYTES) return undefined;
  return { id: createHash('sha256').update('giro secret key ').update(bytes).digest('hex').slice(0, 12), bytes };
}

/** A new random key, base64, for sandbox mode and for operators (`openssl rand -base64 32` is the same). */
export function newEncryptionKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/**
 * Seals with `current` (none: secrets are stored as given, in clear), opens with `current` or any of `previous`
 * (the keys a rotation moves away from).
 */
export class SecretCipher {
  private readonly keys: Map<string, EncryptionKey>;

  constructor(
    private readonly current: EncryptionKey | undefined,
    previous: readonly EncryptionKey[] = [],
  ) {
    this.keys = new Map([...previous, ...(current ? [current] : [])].map((key) => [key.id, key]));
  }

  /** The id of the key new values are sealed with; undefined when they are stored in clear. */
  get keyId(): string | undefined {
    return this.current?.id;
  }

  seal(clear: string): string {
    if (this.current === undefined) return clear;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  open(stored: string): string {
    const parts = stored.split(':');
    if (parts[0] !== VERSION || parts.length !== 5) return stored;
    const [, keyId, iv, tag, sealed] = parts;
    const key = this.keys.get(keyId);
    if (key === undefined) throw new SecretUnreadableError(keyId, 'no encryption key given has this id');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError(keyId, 'the value does not authenticate');
    }
  }

  /** True when `stored` is already sealed with the current key (or stored in clear while no key is set). */
  isCurrent(stored: string): boolean {
    const parts = stored.split(':');
    const keyId = parts[0] === VERSION && parts.length === 5 ? parts[1] : undefined;
    return keyId === this.current?.id;
  }
}

/** Stores secrets as given: no encryption key configured. */
export const CLEAR_SECRETS = new SecretCipher(undefined);
