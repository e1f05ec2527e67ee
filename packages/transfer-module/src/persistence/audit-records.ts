import type { Actor } from '../domain';
import { bigintAsNumber } from './entities/column-transformers';

/** How a request ended: done, or refused (by a rule, a validation, a missing role, an error). */
export type AuditOutcome = 'ok' | 'refused';

/** What a store change tells the audit trail about itself; who and why come from the audit scope. */
export interface AuditChange {
  originId?: number | null;
  /** Another id the change is about: a key's name, an endpoint's id, an anomaly's id, an address. */
  target?: string | null;
  /** What it was and what it is, as JSON; never a secret (no key, no webhook secret). */
  before: unknown;
  after: unknown;
}

/** One row to append to the audit trail. */
export interface AuditEntry extends Partial<AuditChange> {
  who: Actor | null;
  action: string;
  requestId: string;
  clientAddress: string | null;
  outcome: AuditOutcome;
  /** The HTTP status of a refusal (or of an API answer); null for a host's own call. */
  statusCode?: number | null;
  /** Why it was refused, shortened to MAX_AUDIT_ERROR_LENGTH characters. */
  error?: string | null;
}

/** An audit row as the trail returns it. */
export interface AuditRecord {
  seq: number;
  at: Date;
  actor: Actor | null;
  action: string;
  originId: number | null;
  target: string | null;
  before: unknown;
  after: unknown;
  requestId: string;
  clientAddress: string | null;
  outcome: AuditOutcome;
  statusCode: number | null;
  error: string | null;
  prevHash: string;
  hash: string;
}

/** What `AuditTrail.list` filters on; every field optional, all of them together. */
export interface AuditFilter {
  /** The actor's key id or name. */
  actor?: string;
  action?: string;
  originId?: number;
  outcome?: AuditOutcome;
  /** At or after this time. */
  from?: Date;
  /** Before this time. */
  to?: Date;
}

export interface AuditPageRequest {
  limit: number;
  /** The `nextCursor` of the previous page. */
  after?: string;
}

export interface AuditPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

/**
 * What `AuditTrail.verify` found: the whole chain intact (`unkeyedRows`, with a key: the first rows, hashed without
 * one before it was set), or the first row where it breaks and why.
 */
export type AuditVerification =
  | { intact: true; rows: number; unkeyedRows?: number }
  | { intact: false; brokenAt: number; reason: string };

/** A row's seq and hash as noted outside the database (the reconciler's `audit checkpoint` log line). */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
}

/** The longest error text a row keeps. */
export const MAX_AUDIT_ERROR_LENGTH = 500;

const bigint = bigintAsNumber.from;

/** A raw `giro_audit` row (database column names) with its columns as the hash reads them. */
export function hashedColumnsOf(row: Record<string, unknown>) {
  return {
    seq: bigint(row.seq) as number,
    atMs: bigint(row.at_ms) as number,
    actorKeyId: row.actor_key_id as string | null,
    actorName: row.actor_name as string | null,
    actorRole: row.actor_role as string | null,
    action: row.action as string,
    originId: bigint(row.origin_id ?? null),
    target: row.target as string | null,
    before: row.before as string | null,
    after: row.after as string | null,
    requestId: row.request_id as string,
    clientAddress: row.client_address as string | null,
    outcome: row.outcome as string,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    error: row.error as string | null,
    prevHash: row.prev_hash as string,
  };
}

/** A raw `giro_audit` row as an AuditRecord. */
export function auditRecordOf(row: Record<string, unknown>): AuditRecord {
  const columns = hashedColumnsOf(row);
  return {
    seq: columns.seq,
    at: new Date(columns.atMs),
    actor:
      columns.actorKeyId === null
        ? null
        : {
            keyId: columns.actorKeyId,
            name: columns.actorName as string,
            role: columns.actorRole as Actor['role'],
          },
    action: columns.action,
    originId: columns.originId,
    target: columns.target,
    before: parsedJson(columns.before),
    after: parsedJson(columns.after),
    requestId: columns.requestId,
    clientAddress: columns.clientAddress,
    outcome: columns.outcome as AuditOutcome,
    statusCode: columns.statusCode,
    error: columns.error,
    prevHash: columns.prevHash,
    hash: row.hash as string,
  };
}

/** The JSON a row holds; a text that is not JSON (a row changed by hand, which `verify` reports) as it is. */
function parsedJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
