import { createHash, createHmac } from 'node:crypto';

/** The `prev_hash` of the first row of the audit trail: there is no row before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** An audit row's columns that its hash covers: all of them but the hash itself. */
export interface HashedAuditColumns {
  seq: number;
  atMs: number;
  actorKeyId: string | null;
  actorName: string | null;
  actorRole: string | null;
  action: string;
  originId: number | null;
  target: string | null;
  before: string | null;
  after: string | null;
  requestId: string;
  clientAddress: string | null;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  prevHash: string;
}

/**
 * The hash (hex) of an audit row: HMAC-SHA256 under `key` (AUDIT_HMAC_KEY), or plain sha-256 without one, of a JSON
 * array of its columns in a fixed order — strings, numbers and nulls only, so the text is the same whichever engine
 * or process writes or reads the row. `prevHash` in it chains each row to the one before: changing, removing or
 * inserting a row changes every hash after it. Anyone can recompute a plain hash after rewriting a row; only the
 * key's holder can recompute a keyed one.
 */
export function auditHash(columns: HashedAuditColumns, key?: Buffer): string {
  const canonical = JSON.stringify([
    columns.seq,
    columns.atMs,
    columns.actorKeyId,
    columns.actorName,
    columns.actorRole,
    columns.action,
    columns.originId,
    columns.target,
    columns.before,
    columns.after,
    columns.requestId,
    columns.clientAddress,
    columns.outcome,
    columns.statusCode,
    columns.error,
    columns.prevHash,
  ]);
  const hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  return hash.update(canonical, 'utf8').digest('hex');
}
