import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BOOTSTRAP_ADMIN_ACTOR, CLI_ACTOR } from './roles';
import type { Violation } from './violation';

// An API key is `giro_<keyId>_<secret>`: a recognisable prefix (so a leaked key is found by secret scanners and
// by people), a public id that names the stored row without revealing anything, and 256 random bits. Only
// sha-256 of the whole key is stored. A slow password hash would add nothing: the secret is random and long,
// not a word a person chose, so a stolen hash cannot be reversed by guessing.

export const API_KEY_PREFIX = 'giro_';
/** Bytes of the public id (hex in the key: 16 characters). */
const KEY_ID_BYTES = 8;
/** Bytes of the secret (hex in the key: 64 characters, 256 bits). */
const SECRET_BYTES = 32;

const API_KEY_PATTERN = /^giro_([0-9a-f]{16})_([0-9a-f]{64})$/;
/** Anything shaped like a key, inside other text: what log redaction looks for. */
export const API_KEY_IN_TEXT = /giro_([0-9a-f]{16})_[0-9a-f]{64}/g;

export interface ParsedApiKey {
  keyId: string;
  /** The whole key, as presented. */
  key: string;
}

/** A new key and what is stored of it. `random` is injectable for tests; the default is node:crypto. */
export function generateApiKey(random: (size: number) => Buffer = randomBytes): {
  keyId: string;
  key: string;
  hash: string;
} {
  const keyId = random(KEY_ID_BYTES).toString('hex');
  const secret = random(SECRET_BYTES).toString('hex');
  if (keyId.length !== KEY_ID_BYTES * 2 || secret.length !== SECRET_BYTES * 2) {
    throw new RangeError('the random source returned fewer bytes than asked');
  }
  const key = `${API_KEY_PREFIX}${keyId}_${secret}`;
  return { keyId, key, hash: apiKeyHash(key) };
}

/** The key's parts when `text` has a key's shape, else undefined (nothing is looked up for it then). */
export function parseApiKey(text: string): ParsedApiKey | undefined {
  const match = API_KEY_PATTERN.exec(text);
  return match ? { keyId: match[1] as string, key: text } : undefined;
}

/** What is stored of a key: sha-256 of the whole key, hex. */
export function apiKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Whether `key` is the key whose hash is `storedHash`, compared in constant time: both are 32-byte digests, so
 * neither the content nor the length of what was presented shows in the time taken.
 */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(key, 'utf8').digest();
  const stored = Buffer.from(storedHash, 'hex');
  // A stored hash is always 32 bytes; a corrupt one must not throw, nor match.
  if (stored.length !== presented.length) return false;
  return timingSafeEqual(presented, stored);
}

/** `text` with the secret of every key in it replaced (`giro_<keyId>_[redacted]`): the id stays, to tell keys apart. */
export function redactApiKeys(text: string, censor = '[redacted]'): string {
  return text.replace(API_KEY_IN_TEXT, (_key, keyId: string) => `${API_KEY_PREFIX}${keyId}_${censor}`);
}

export const MAX_API_KEY_NAME_LENGTH = 64;
/**
 * A person's or a system's name, as people write it ("Ana Gómez", "ci-bot"): words of letters of any script (with
 * their accents), digits and `.`, `-`, `_`, `'`, one space between words. The key's `keyId` is its identifier; the
 * name is unique too, and composed (NFC), so that one name is never stored two ways.
 */
const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}._'-]*(?: [\p{L}\p{M}\p{N}._'-]+)*$/u;

/** Why `name` cannot name a key (the field and the rule), or undefined when it can. */
export function explainApiKeyName(name: unknown): Violation | undefined {
  const violation = (message: string, params: Violation['params']): Violation => ({
    field: 'name',
    rule: 'key_name',
    params,
    message,
  });
  if (typeof name !== 'string' || name.length === 0) {
    return violation('is required: a name for the key', { reason: 'required' });
  }
  if ([...name].length > MAX_API_KEY_NAME_LENGTH || !NAME_PATTERN.test(name) || name !== name.normalize('NFC')) {
    return violation(
      `must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters: letters, digits, '.', '-', '_', "'", single spaces between words, starting with a letter or digit`,
      { reason: 'format', max: MAX_API_KEY_NAME_LENGTH },
    );
  }
  // Compared as a reader would: the audit's actor filter must never mix a key with these.
  const folded = name.normalize('NFKC').toLowerCase();
  const reserved = RESERVED_NAMES.get(folded);
  if (reserved !== undefined)
    return violation(`"${name}" is reserved: it names ${reserved}`, { reason: 'reserved', name });
  if (KEY_ID_SHAPE.test(folded) || folded.startsWith(API_KEY_PREFIX)) {
    return violation(`"${name}" looks like an API key's id: the audit would not tell the two apart`, {
      reason: 'key_id',
      name,
    });
  }
  return undefined;
}

/** The actors that are not stored keys, whose names a key may not take. */
const RESERVED_NAMES: ReadonlyMap<string, string> = new Map([
  [BOOTSTRAP_ADMIN_ACTOR.name, 'the bootstrap ADMIN_TOKEN'],
  [BOOTSTRAP_ADMIN_ACTOR.keyId, 'the bootstrap ADMIN_TOKEN'],
  [CLI_ACTOR.name, "the reconciler's command line"],
  [CLI_ACTOR.keyId, "the reconciler's command line"],
]);

/** A key's public id: what the audit's actor filter also matches. */
const KEY_ID_SHAPE = new RegExp(`^[0-9a-f]{${KEY_ID_BYTES * 2}}$`);
