import { explainOriginId, isMovementStatus, MOVEMENT_STATUSES, type MovementStatus } from '../domain';
import { StoreArgumentError } from './persistence.errors';

// Checks of the values callers hand to the store, so that a bad one fails with its name and rule before
// anything is written.

export function checkOriginId(value: unknown, field = 'originId'): number {
  const problem = explainOriginId(value);
  if (problem !== undefined) throw new StoreArgumentError(field, 'origin_id', problem);
  return value as number;
}

export function checkInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new StoreArgumentError(field, 'range', `must be an integer from ${min} to ${max}, got ${String(value)}`);
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
    throw new StoreArgumentError(field, 'status', `must be one of ${MOVEMENT_STATUSES.join(', ')}`);
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
