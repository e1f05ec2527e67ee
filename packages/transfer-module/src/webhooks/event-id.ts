import { randomBytes } from 'node:crypto';

// An event id is `msg_` and 22 characters of base64url's alphabet, the last one of `A`, `Q`, `g`, `w` (the shape
// of 16 bytes in base64url), and it starts with its time: 48 bits of milliseconds, then 80 random bits. Ids
// written one after another then land side by side in the events' unique index instead of all over it. The
// alphabet's characters stand for their values in byte order, so ids compare as text (bytes) in time order.

/** base64url's 64 characters, in byte order: the value of each is its position. */
const ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** The last character holds 2 bits, as the last of 16 bytes in base64url does; these four are in byte order too. */
const LAST = 'AQgw';
/** Milliseconds since the epoch: 8 characters of 6 bits (until the year 10889). */
const TIME_CHARACTERS = 8;
/** Random characters after the time: 13 of 6 bits, and the last of 2. */
const RANDOM_CHARACTERS = 13;
/** A random byte per random character: each keeps the bits it needs (256 is a multiple of 64: uniform). */
const RANDOM_BYTES = RANDOM_CHARACTERS + 1;
/** Random bytes drawn for many ids at once: a statement's import renders an event per debit no transfer explains. */
const POOL_BYTES = RANDOM_BYTES * 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A new event id, the same on every attempt of every delivery: its time (`atMs`, now by default) first, then 80
 * random bits, unique across replicas without asking anyone.
 */
export function newEventId(atMs = Date.now()): string {
  if (poolOffset + RANDOM_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const characters: string[] = new Array(TIME_CHARACTERS);
  let time = Math.floor(atMs);
  for (let index = TIME_CHARACTERS - 1; index >= 0; index--) {
    characters[index] = ALPHABET[time % 64];
    time = Math.floor(time / 64);
  }
  for (let index = 0; index < RANDOM_CHARACTERS; index++) characters.push(ALPHABET[pool[poolOffset + index] & 63]);
  characters.push(LAST[pool[poolOffset + RANDOM_CHARACTERS] & 3]);
  poolOffset += RANDOM_BYTES;
  return `msg_${characters.join('')}`;
}
