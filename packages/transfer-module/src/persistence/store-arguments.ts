import { isMovementStatus, MOVEMENT_STATUSES, type MovementStatus, originIdProblem } from '../domain';
import { StoreArgumentError } from './persistence.errors';

// Checks of the values callers hand to the store, so that a bad one fails with its name and rule before
// anything is written.

export function checkOriginId(value: unknown, field = 'originId'): number {
  const problem = originIdProblem(value);
  if (problem !== undefined) throw new StoreArgumentError(field, 'origin_id', problem.message, problem.params);
  return value as number;
}

/** A CBU or CVU: 22 digits. */
export function checkAddress(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[0-9]{22}$/.test(value)) {
    throw new StoreArgumentError(field, 'format', 'must be 22 digits');
  }
  return value;
}

export function checkInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new StoreArgumentError(field, 'range', `must be an integer from ${min} to ${max}, got ${String(value)}`, {
      min,
      max,
      value: String(value),
    });
  }
  return value;
}

/** The most rows one claim or one page may return. */
export const MAX_BATCH_SIZE = 1000;

export const MAX_LEASE_OWNER_LENGTH = 200;

export function checkLeaseOwner(value: unknown, field = 'owner'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LEASE_OWNER_LENGTH) {
    throw new StoreArgumentError(
      field,
      'lease_owner',
      `must be a non-empty string of at most ${MAX_LEASE_OWNER_LENGTH} characters`,
    );
  }
  return value;
}

/** A lease lasts from 1 ms to one day. */
export function checkLeaseMs(value: unknown, field = 'leaseMs'): number {
  return checkInteger(value, field, 1, 86_400_000);
}

export function checkStatus(value: unknown, field: string): MovementStatus {
  if (!isMovementStatus(value)) {
    throw new StoreArgumentError(field, 'status', `must be one of ${MOVEMENT_STATUSES.join(', ')}`, {
      allowed: MOVEMENT_STATUSES,
    });
  }
  return value;
}

/** The longest network id a lookup takes: far above any network's, short enough to bound a query. */
export const MAX_NETWORK_ID_LENGTH = 200;

export function checkNetworkId(value: unknown, field = 'networkId'): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NETWORK_ID_LENGTH) {
    throw new StoreArgumentError(
      field,
      'network_id',
      `must be a non-empty string of at most ${MAX_NETWORK_ID_LENGTH} characters`,
      { max: MAX_NETWORK_ID_LENGTH },
    );
  }
  return value;
}

/** A valid Date, as epoch milliseconds. */
export function checkDate(value: unknown, field: string): number {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new StoreArgumentError(field, 'date', 'must be a valid Date');
  }
  return value.getTime();
}

/** The longest note a resolution takes (characters, counted as code points). */
export const MAX_NOTE_LENGTH = 500;
/** The longest registration id a host may give with an acknowledgement. */
export const MAX_REFERENCE_LENGTH = 100;
/** The longest key id or name an actor may have (API key names are at most 64 characters). */
const MAX_ACTOR_FIELD_LENGTH = 64;

// Control characters (NUL included, which Postgres text refuses) have no place in a note's line or an id.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it looks for
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f]/;

/** Free text an operator writes (a note): 1 to `max` characters, not only spaces, line breaks allowed. */
export function checkText(value: unknown, field: string, max: number, options: { lineBreaks: boolean }): string {
  if (typeof value !== 'string') throw new StoreArgumentError(field, 'type', 'must be a string');
  const length = [...value].length;
  if (value.trim() === '' || length > max) {
    throw new StoreArgumentError(field, 'length', `must be from 1 to ${max} characters, not only spaces`, {
      min: 1,
      max,
    });
  }
  if ((options.lineBreaks ? CONTROL : CONTROL_OR_LINE_BREAK).test(value)) {
    const what = options.lineBreaks ? 'control characters' : 'control characters or line breaks';
    throw new StoreArgumentError(field, 'characters', `must not contain ${what}`, {
      reason: options.lineBreaks ? 'control_character' : 'control_character_or_line_break',
    });
  }
  return value;
}

/** Who did something: a key id and a name, each 1 to 64 characters. */
export function checkActor(value: unknown, field: string): { keyId: string; name: string } {
  const actor = (typeof value === 'object' && value !== null ? value : {}) as { keyId?: unknown; name?: unknown };
  const keyId = checkText(actor.keyId, `${field}.keyId`, MAX_ACTOR_FIELD_LENGTH, { lineBreaks: false });
  const name = checkText(actor.name, `${field}.name`, MAX_ACTOR_FIELD_LENGTH, { lineBreaks: false });
  return { keyId, name };
}
