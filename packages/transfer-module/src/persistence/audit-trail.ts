import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../domain';
import { auditHash, GENESIS_HASH, type HashedAuditColumns } from './audit-hash';
import {
  type AuditChange,
  type AuditCheckpoint,
  type AuditEntry,
  type AuditFilter,
  type AuditPage,
  type AuditPageRequest,
  type AuditRecord,
  type AuditVerification,
  auditRecordOf,
  hashedColumnsOf,
  MAX_AUDIT_ERROR_LENGTH,
} from './audit-records';
import { currentAuditScope } from './audit-scope';
import { type EngineAdapter, engineAdapterFor } from './engine/engine-adapter';
import type { Transactions } from './engine/transactions';
import { StoreArgumentError } from './persistence.errors';
import { checkDate, checkInteger, checkOriginId, MAX_BATCH_SIZE } from './store-arguments';

/**
 * Key of the lock every append takes in its transaction (EngineAdapter.serialize: on Postgres an advisory lock),
 * "audit" in ASCII. One lock for the whole trail puts the appends in one order, the order of `seq`: each reads the
 * last row only once the one before it has committed (or rolled back), so no two take the same `seq` and none
 * leaves a gap.
 */
export const AUDIT_LOCK_KEY = 0x6175646974;

export interface AuditTrailOptions {
  /**
   * The secret every row's hash is keyed with (HMAC-SHA256), kept outside the database: whoever can write the
   * database but not read this cannot rewrite a row and recompute the hashes after it. Without it, plain sha-256.
   */
  hmacKey?: string;
}

/** Rows `verify` reads per transaction. */
const VERIFY_PAGE_SIZE = 1000;

const COLUMN_NAMES = [
  'seq',
  'at_ms',
  'actor_key_id',
  'actor_name',
  'actor_role',
  'action',
  'origin_id',
  'target',
  'before',
  'after',
  'request_id',
  'client_address',
  'outcome',
  'status_code',
  'error',
  'prev_hash',
  'hash',
] as const;
const COLUMNS = COLUMN_NAMES.map((name) => `"${name}"`).join(', ');
const INSERT = `INSERT INTO "giro_audit" (${COLUMNS}) VALUES (${COLUMN_NAMES.map(() => '?').join(', ')})`;

/** A cursor of the list: the `seq` of the last row of the previous page. */
const CURSOR = /^[1-9][0-9]{0,15}$/;

const OUTCOMES = ['ok', 'refused'];

/**
 * giro's audit trail (`giro_audit`): one append-only row per change (or refused attempt), each hashed over its
 * columns and the previous row's hash (keyed with `hmacKey` when given), so that a row changed, removed or inserted
 * afterwards shows in `verify`, and a tail removed shows against a checkpoint.
 *
 * Rows are appended in the transaction of the change they describe (`recordChange`, `append`): a change that rolls
 * back leaves no row, and a row is never missing for a committed change. Who made the change comes from the audit
 * scope the caller opened (audit-scope.ts, which AuditService.runAs opens); outside one, `recordChange` records nothing (giro's own work).
 */
export class AuditTrail {
  private readonly engine: EngineAdapter;
  private readonly transactions: Transactions;

  /** AUDIT_HMAC_KEY's bytes: each row's hash is keyed with it. */
  private readonly key: Buffer | undefined;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    options: AuditTrailOptions = {},
  ) {
    this.engine = engineAdapterFor(dataSource);
    this.transactions = this.engine.transactions;
    this.key = options.hmacKey === undefined ? undefined : Buffer.from(options.hmacKey, 'utf8');
  }

  /** Whether a change made now would append a row (an audit scope is open): it then needs a transaction. */
  isRecording(): boolean {
    return currentAuditScope() !== undefined;
  }

  /**
   * Inside a change's transaction: appends its `ok` row, attributed to the current audit scope, and marks the scope
   * recorded. Nothing when no scope is open. Best as the last statement of the transaction: the trail's lock is
   * then held only until its commit.
   */
  async recordChange(manager: EntityManager, change: AuditChange): Promise<void> {
    const scope = currentAuditScope();
    if (scope === undefined) return;
    await this.append(manager, {
      who: scope.who,
      action: scope.action,
      requestId: scope.requestId,
      clientAddress: scope.clientAddress,
      outcome: 'ok',
      originId: change.originId ?? scope.originId ?? null,
      target: change.target ?? scope.target ?? null,
      before: change.before,
      after: change.after,
    });
    scope.recorded = true;
  }

  /** Appends `entry` in a transaction of its own (a refusal, or a request that changed nothing the store records). */
  record(entry: AuditEntry): Promise<AuditRecord> {
    return this.transactions.write((manager) => this.append(manager, entry));
  }

  /**
   * Appends `entry` in the caller's transaction (a write transaction). Postgres: under the trail's advisory lock,
   * held until that transaction ends; SQLite: its write lock already lets one writer in at a time.
   */
  async append(manager: EntityManager, entry: AuditEntry): Promise<AuditRecord> {
    await this.engine.serialize(manager, AUDIT_LOCK_KEY);
    const [last] = await manager.query('SELECT "seq", "hash" FROM "giro_audit" ORDER BY "seq" DESC LIMIT 1');
    const columns: HashedAuditColumns = {
      seq: last === undefined ? 1 : Number(last.seq) + 1,
      atMs: this.clock.now().getTime(),
      actorKeyId: entry.who?.keyId ?? null,
      actorName: entry.who?.name ?? null,
      actorRole: entry.who?.role ?? null,
      action: entry.action,
      originId: entry.originId ?? null,
      target: entry.target ?? null,
      before: jsonOf(entry.before),
      after: jsonOf(entry.after),
      requestId: entry.requestId,
      clientAddress: entry.clientAddress,
      outcome: entry.outcome,
      statusCode: entry.statusCode ?? null,
      error: entry.error == null ? null : [...entry.error].slice(0, MAX_AUDIT_ERROR_LENGTH).join(''),
      prevHash: last === undefined ? GENESIS_HASH : (last.hash as string),
    };
    const row = rowOf(columns, auditHash(columns, this.key));
    await manager.query(
      this.engine.sql(INSERT),
      COLUMN_NAMES.map((name) => row[name]),
    );
    return auditRecordOf(row);
  }

  /**
   * Walks the whole chain in `seq` order, a page per transaction: every row's hash is its columns' hash, every
   * `prev_hash` the hash of the row before (the first row's: GENESIS_HASH), and `seq` goes 1, 2, 3… without a gap.
   * With the trail's key, a row's hash is its keyed hash — or its plain sha-256 for the rows before the first keyed
   * one (written before the key was set): a plain row after a keyed one was rewritten by someone without the key,
   * and a trail with no keyed row at all was written without this key or rewritten whole. Each checkpoint (a row's
   * seq and hash noted outside the database) must still be in the trail with that hash: rows removed from the end,
   * a truncation or an older copy restored leave no trace in the chain itself, only against a checkpoint.
   * The first row where one fails is `brokenAt`, with the reason.
   */
  async verify(checkpoints: readonly AuditCheckpoint[] = []): Promise<AuditVerification> {
    const noted = new Map(checkpoints.map((checkpoint) => [checkpoint.seq, checkpoint.hash]));
    let expectedSeq = 1;
    let previousHash = GENESIS_HASH;
    let unkeyedRows = 0;
    for (;;) {
      const rows: Record<string, unknown>[] = await this.transactions.read((manager) =>
        manager.query(this.engine.sql(`SELECT ${COLUMNS} FROM "giro_audit" WHERE "seq" >= ? ORDER BY "seq" LIMIT ?`), [
          expectedSeq,
          VERIFY_PAGE_SIZE,
        ]),
      );
      for (const row of rows) {
        const columns = hashedColumnsOf(row);
        if (columns.seq !== expectedSeq) {
          const missing =
            columns.seq === expectedSeq + 1 ? `row ${expectedSeq} is` : `rows ${expectedSeq} to ${columns.seq - 1} are`;
          return { intact: false, brokenAt: columns.seq, reason: `gap in seq: ${missing} missing` };
        }
        if (columns.prevHash !== previousHash) {
          const previous = expectedSeq === 1 ? 'the genesis hash' : `the hash of seq ${expectedSeq - 1}`;
          return { intact: false, brokenAt: columns.seq, reason: `prev_hash mismatch: it is not ${previous}` };
        }
        const problem = this.hashProblem(columns, row.hash as string, unkeyedRows === expectedSeq - 1);
        if (problem === 'unkeyed') unkeyedRows += 1;
        else if (problem !== undefined) return { intact: false, brokenAt: columns.seq, reason: problem };
        const checkpoint = noted.get(columns.seq);
        if (checkpoint !== undefined && checkpoint !== row.hash) {
          return {
            intact: false,
            brokenAt: columns.seq,
            reason: `checkpoint mismatch: seq ${columns.seq} had hash ${checkpoint}, it has another now (rewritten, or restored from another copy)`,
          };
        }
        previousHash = row.hash as string;
        expectedSeq += 1;
      }
      if (rows.length < VERIFY_PAGE_SIZE) break;
    }
    const rows = expectedSeq - 1;
    const beyond = Math.max(0, ...noted.keys());
    if (beyond > rows) {
      return {
        intact: false,
        brokenAt: expectedSeq,
        reason: `checkpoint seq ${beyond} is gone: the trail ends at seq ${rows} (rows deleted from its end, truncated, or restored from an older copy)`,
      };
    }
    if (this.key === undefined) return { intact: true, rows };
    if (rows > 0 && unkeyedRows === rows) {
      return {
        intact: false,
        brokenAt: 1,
        reason:
          'no row is keyed with this AUDIT_HMAC_KEY: the trail was written without it (or with another key), or rewritten whole by someone without it',
      };
    }
    return { intact: true, rows, ...(unkeyedRows > 0 && { unkeyedRows }) };
  }

  /** The last row's seq and hash, to note outside the database; null while the trail is empty. */
  async lastCheckpoint(): Promise<AuditCheckpoint | null> {
    const [last] = await this.transactions.read((manager) =>
      manager.query('SELECT "seq", "hash" FROM "giro_audit" ORDER BY "seq" DESC LIMIT 1'),
    );
    return last === undefined ? null : { seq: Number(last.seq), hash: last.hash as string };
  }

  /**
   * Why a row's stored hash is not its hash; `unkeyed` for a plain hash the key's trail accepts (`mayBeUnkeyed`:
   * every row before it is plain too); undefined when it is right.
   */
  private hashProblem(columns: HashedAuditColumns, stored: string, mayBeUnkeyed: boolean): string | undefined {
    if (this.key === undefined) {
      return auditHash(columns) === stored ? undefined : 'hash mismatch: the row was changed after it was written';
    }
    if (auditHash(columns, this.key) === stored) return undefined;
    if (auditHash(columns) === stored) {
      return mayBeUnkeyed
        ? 'unkeyed'
        : 'hash mismatch: hashed without AUDIT_HMAC_KEY after keyed rows: rewritten by someone without the key';
    }
    return mayBeUnkeyed
      ? 'hash mismatch: the row was changed after it was written, or AUDIT_HMAC_KEY is not the key it was written with'
      : 'hash mismatch: the row was changed after it was written';
  }

  /** A page of the trail, newest first, filtered (all the filter's fields together); `nextCursor` for the next. */
  async list(filter: AuditFilter, page: AuditPageRequest): Promise<AuditPage> {
    const limit = checkInteger(page?.limit, 'limit', 1, MAX_BATCH_SIZE);
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    const where = (condition: string, ...values: unknown[]) => {
      conditions.push(condition);
      parameters.push(...values);
    };
    if (filter.actor !== undefined) {
      const actor = checkShortText(filter.actor, 'actor');
      where('("actor_key_id" = ? OR "actor_name" = ?)', actor, actor);
    }
    if (filter.action !== undefined) where('"action" = ?', checkShortText(filter.action, 'action'));
    if (filter.originId !== undefined) where('"origin_id" = ?', checkOriginId(filter.originId));
    if (filter.outcome !== undefined) {
      if (!OUTCOMES.includes(filter.outcome)) {
        throw new StoreArgumentError('outcome', 'outcome', `must be one of ${OUTCOMES.join(', ')}`);
      }
      where('"outcome" = ?', filter.outcome);
    }
    if (filter.from !== undefined) where('"at_ms" >= ?', checkDate(filter.from, 'from'));
    if (filter.to !== undefined) where('"at_ms" < ?', checkDate(filter.to, 'to'));
    if (page.after !== undefined) where('"seq" < ?', parseCursor(page.after));
    const text = `SELECT ${COLUMNS} FROM "giro_audit"${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`}
  ORDER BY "seq" DESC LIMIT ?`;
    const rows: Record<string, unknown>[] = await this.transactions.read((manager) =>
      manager.query(this.engine.sql(text), [...parameters, limit + 1]),
    );
    const items = rows.slice(0, limit).map(auditRecordOf);
    const nextCursor = rows.length > limit ? String(items[items.length - 1]?.seq) : null;
    return { items, nextCursor };
  }
}

/** The row as the database holds it (its column names). */
function rowOf(columns: HashedAuditColumns, hash: string): Record<(typeof COLUMN_NAMES)[number], unknown> {
  return {
    seq: columns.seq,
    at_ms: columns.atMs,
    actor_key_id: columns.actorKeyId,
    actor_name: columns.actorName,
    actor_role: columns.actorRole,
    action: columns.action,
    origin_id: columns.originId,
    target: columns.target,
    before: columns.before,
    after: columns.after,
    request_id: columns.requestId,
    client_address: columns.clientAddress,
    outcome: columns.outcome,
    status_code: columns.statusCode,
    error: columns.error,
    prev_hash: columns.prevHash,
    hash,
  };
}

/** The JSON text of a before or after; null for nothing. */
function jsonOf(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function checkShortText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    throw new StoreArgumentError(field, 'text', 'must be a non-empty string of at most 200 characters');
  }
  return value;
}

function parseCursor(after: unknown): number {
  if (typeof after !== 'string' || !CURSOR.test(after) || !Number.isSafeInteger(Number(after))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return Number(after);
}
