import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Injection token of this module instance's lease owner id (a string), shared by its transfers and sweeps. */
export const LEASE_OWNER = Symbol('giro:LeaseOwner');

/** A lease owner id for this process: host, pid and a random part (two instances in one process differ). */
export function createLeaseOwner(): string {
  return `${hostname().slice(0, 100)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}
