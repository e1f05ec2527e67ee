import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A lease owner id for this process: host, pid and a random part (two instances in one process differ). */
export function createLeaseOwner(): string {
  return `${hostname().slice(0, 100)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}
