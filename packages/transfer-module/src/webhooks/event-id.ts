import { randomBytes } from 'node:crypto';

// An event id is `msg_` and 22 characters of base64url's alphabet, the last one of `A`, `Q`, `g`, `w` (the shape
// of 16 bytes in base64url), and it starts with its time: 48 bits of milliseconds, then 80 random bits. Ids
// written one after another then land side by side in the events' unique index instead of all over it. The
// alphabet's characters stand for their values in byte order, so ids compare as text (bytes) in time order. Within
// a millisecond, a process's next id is its last one plus a random step (1 to 256), so its ids only grow: each
// goes to the index's right edge. Replicas draw their first id of a millisecond at random: unique without asking
// anyone.

/** base64url's 64 characters, in byte order: the value of each is its position. */
const ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** The last character holds 2 bits, as the last of 16 bytes in base64url does; these four are in byte order too. */
const LAST = 'AQgw';
/** Milliseconds since the epoch: 8 characters of 6 bits (until the year 10889). */
const TIME_CHARACTERS = 8;
/** Random characters after the time: 13 of 6 bits, then the last of 2. */
const RANDOM_CHARACTERS = 13;
/** Random bytes drawn for many ids at once: a statement's import renders an event per debit no transfer explains. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** The last id's time, and its random part as digits (13 of 6 bits, then one of 2), most significant first. */
let lastAtMs = -1;
const digits = new Uint8Array(RANDOM_CHARACTERS + 1);

function randomByte(): number {
  if (poolOffset === pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** A random part drawn afresh (each digit keeps the bits it needs of a byte: 256 is a multiple of 64, uniform). */
function drawDigits(): void {
  for (let index = 0; index < RANDOM_CHARACTERS; index++) digits[index] = randomByte() & 63;
  digits[RANDOM_CHARACTERS] = randomByte() & 3;
}

/** The random part moved up by a random step; false when it ran past its largest value. */
function stepDigits(): boolean {
  let carry = randomByte() + 1 + digits[RANDOM_CHARACTERS];
  digits[RANDOM_CHARACTERS] = carry & 3;
  carry >>= 2;
  for (let index = RANDOM_CHARACTERS - 1; index >= 0 && carry > 0; index--) {
    carry += digits[index];
    digits[index] = carry & 63;
    carry >>= 6;
  }
  return carry === 0;
}

/** A new event id, the same on every attempt of every delivery: its time (`atMs`, now by default) first. */
export function newEventId(atMs = Date.now()): string {
  const time = Math.floor(atMs);
  if (time !== lastAtMs || !stepDigits()) drawDigits();
  lastAtMs = time;
  const characters: string[] = new Array(TIME_CHARACTERS);
  let rest = time;
  for (let index = TIME_CHARACTERS - 1; index >= 0; index--) {
    characters[index] = ALPHABET[rest % 64];
    rest = Math.floor(rest / 64);
  }
  for (let index = 0; index < RANDOM_CHARACTERS; index++) characters.push(ALPHABET[digits[index]]);
  characters.push(LAST[digits[RANDOM_CHARACTERS]]);
  return `msg_${characters.join('')}`;
}
