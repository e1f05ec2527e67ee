import type { DataSource, EntityManager, EntityMetadata, SelectQueryBuilder } from 'typeorm';
import {
  type Clock,
  FINAL_STATUSES,
  isDecimalAmount,
  isFinalStatus,
  isMovementStatus,
  MOVEMENT_STATUSES,
  type MovementStatus,
  PENDING_STATUS,
  type TransferIntent,
} from '../domain';
import { type DatabaseEngine, engineOf } from './database-engine';
import { inClaimOrder, selectDue, selectNextDueMs } from './due-claim';
import {
  CancellationEntity,
  HISTORY_SOURCES,
  type HistorySource,
  MovementEntity,
  MovementHistoryEntity,
} from './entities';
import { type FencedWrite, runFencedWrite } from './fenced-update';
import {
  type CancellationRecord,
  type HistoryRecord,
  type MovementDetails,
  type MovementRecord,
  toCancellationRecord,
  toHistoryRecord,
  toMovementRecord,
} from './movement-records';
import { OriginIdAllocator } from './origin-id-allocator';
import {
  CancellationNotFoundError,
  MovementNotFoundError,
  MovementUpdateRejectedError,
  StoreArgumentError,
} from './persistence.errors';
import { updateBatchFor, type WriteAlone } from './postgres-update-batch';
import { queryWithCount } from './query-with-count';
import { historyFromRow, placeholdersFor } from './raw-rows';
import { checkInteger, checkLeaseMs, checkLeaseOwner, checkOriginId } from './store-arguments';
import { type Transactions, transactionsFor } from './transactions';

export interface MovementStoreOptions {
  /** OriginIds taken per allocator commit and handed out from memory (default DEFAULT_ORIGIN_ID_BLOCK_SIZE). */
  originIdBlockSize?: number;
}

/** The most rows one claim or one page may return. */
export const MAX_BATCH_SIZE = 1000;

export type RecordIntentOptions =
  /** The caller sends right after this commit: the movement is leased to it and counted as one send. */
  | { sendNow: true; owner: string; leaseMs: number }
  /** A sweep will send it (it is due at once). */
  | { sendNow: false };

export type RecordIntentResult =
  /** `history`: the one row written, null → PENDING. */
  | { created: true; movement: MovementRecord; history: HistoryRecord[] }
  /** The originId was already stored: `movement` is that row, untouched (compare fingerprints). */
  | { created: false; movement: MovementRecord };

export interface ClaimDueOptions {
  owner: string;
  limit: number;
  leaseMs: number;
  /** "Now" for the lease (default: the store's clock); also for due-ness when `dueBy` is absent. */
  now?: Date;
  /**
   * Claim only movements with nextQueryAt ≤ dueBy (default: `now`). A sweep passes its start time, so what
   * it answered (due again after the start) is not claimed again within it. Leases still expire by `now`.
   */
  dueBy?: Date;
}

/** Fields of a movement an update may set; absent = unchanged, null = cleared. */
export interface MovementPatch {
  status?: MovementStatus;
  bankMovementId?: string | null;
  networkId?: string | null;
  network?: string | null;
  postingDatetime?: string | null;
  completedDatetime?: string | null;
  /** Any JSON value (stored as JSON text). */
  lastBankAnswer?: unknown;
  lastError?: string | null;
  lastAnswerAt?: Date | null;
  /** Ignored once the status is final: a final movement is never due again (null). */
  nextQueryAt?: Date | null;
}

/** A history row to append; `from` is the status before the update, `at` the store's clock. */
export interface HistoryEntry {
  to: MovementStatus;
  source: HistorySource;
  /** Any JSON value. */
  detail?: unknown;
}

export interface CancellationReason {
  code: string | null;
  message: string | null;
}

export interface MovementUpdate {
  patch: MovementPatch;
  /** Required to contain a non-anomaly entry `to` the new status whenever the status changes. */
  history?: HistoryEntry[];
  /** Required exactly when the status becomes FAILED: written in the same transaction. */
  cancellation?: CancellationReason;
  /** Count one get-movement query. */
  countQuery?: boolean;
  /**
   * The send counted by `recordIntent` / `markSendAttempt` was certainly not processed (not sent, 429, 401):
   * `attempts` goes back down by one, so it keeps counting only sends that may have reached the bank.
   */
  uncountSend?: boolean;
  /** Give the lease up in the same write (the work on this movement is done for now). */
  releaseLease: boolean;
}

export type ApplyUpdateResult =
  /** `history`: the rows this update appended, oldest first. */
  | { applied: true; movement: MovementRecord; history: HistoryRecord[]; cancellation: CancellationRecord | null }
  /** The lease is not (or no longer) the caller's: nothing was written. */
  | { applied: false };

export interface ListMovementsOptions {
  status?: MovementStatus;
  limit: number;
  /** The `nextCursor` of the previous page. */
  after?: string;
}

export interface MovementPage<T = MovementRecord> {
  /** By originId, ascending. */
  items: T[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

const FINALS = [...FINAL_STATUSES];

const INSERT_INTENT_HISTORY_TEXT = `INSERT INTO "giro_movement_history"
  ("origin_id", "from_status", "to_status", "at_ms", "source", "detail") VALUES (?, NULL, ?, ?, ?, NULL) RETURNING *`;
const INSERT_INTENT_HISTORY: Record<DatabaseEngine, string> = {
  sqlite: INSERT_INTENT_HISTORY_TEXT,
  postgres: placeholdersFor('postgres', INSERT_INTENT_HISTORY_TEXT),
};

interface MovementInsert {
  sql: string;
  /** The entity's properties, in the order of the statement's placeholders. */
  properties: (keyof MovementEntity)[];
}

// The INSERT of a new movement names every column of the entity: it is spelled once per data source (its
// metadata), not on every insert, so the driver also finds it prepared without hashing a new text each time.
const movementInserts = new WeakMap<EntityMetadata, MovementInsert>();

function movementInsertFor(metadata: EntityMetadata, engine: DatabaseEngine): MovementInsert {
  let insert = movementInserts.get(metadata);
  if (insert === undefined) {
    const columns = metadata.columns;
    const sql = `INSERT INTO "giro_movements" (${columns.map((column) => `"${column.databaseName}"`).join(', ')})
      VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT ("origin_id") DO NOTHING`;
    insert = {
      sql: placeholdersFor(engine, sql),
      properties: columns.map((column) => column.propertyName as keyof MovementEntity),
    };
    movementInserts.set(metadata, insert);
  }
  return insert;
}
const FINGERPRINT = /^[0-9a-f]{64}$/;
const CURSOR = /^[1-9][0-9]{0,15}$/;

/**
 * Everything the services persist about movements. Every method is one transaction. A lease (owner +
 * expiry) gives one worker a movement at a time; every write of a leased movement is fenced: it happens only
 * while the caller's lease is unexpired, so a worker that stalled past its lease writes nothing.
 */
export class MovementStore {
  private readonly engine: DatabaseEngine;
  private readonly transactions: Transactions;
  private readonly allocator: OriginIdAllocator;
  /** A fenced update without history rows; on Postgres batched with the others under way (PostgresUpdateBatch). */
  private readonly writeWithoutHistory: WriteAlone;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    options: MovementStoreOptions = {},
  ) {
    this.engine = engineOf(dataSource);
    this.transactions = transactionsFor(dataSource);
    const writeAlone: WriteAlone = async (write) =>
      (await this.transactions.runStatement((manager) => runFencedWrite(manager, this.engine, write)))?.movement ??
      null;
    if (this.engine === 'postgres') {
      const batch = updateBatchFor(dataSource, writeAlone);
      this.writeWithoutHistory = (write) => batch.write(write);
    } else {
      this.writeWithoutHistory = writeAlone;
    }
    this.allocator = new OriginIdAllocator(dataSource, clock, {
      transactions: this.transactions,
      blockSize: options.originIdBlockSize,
    });
  }

  /** `count` new originIds, never handed out before (see OriginIdAllocator). */
  allocateOriginIds(count: number): Promise<number[]> {
    return this.allocator.allocate(count);
  }

  /**
   * Stores the intent as PENDING, due at once (a sweep re-sends it if the caller dies before sending). With
   * `sendNow` it is leased to the caller and counted as one send, durably, before the caller sends.
   */
  async recordIntent(
    intent: TransferIntent,
    fingerprint: string,
    options: RecordIntentOptions,
  ): Promise<RecordIntentResult> {
    const originId = checkOriginId(intent?.originId, 'intent.originId');
    if (!isDecimalAmount(intent.amount)) {
      throw new StoreArgumentError('intent.amount', 'amount', 'must be a canonical decimal string like "1234.50"');
    }
    if (typeof fingerprint !== 'string' || !FINGERPRINT.test(fingerprint)) {
      throw new StoreArgumentError('fingerprint', 'sha256_hex', 'must be 64 lowercase hexadecimal characters');
    }
    const lease = options.sendNow
      ? { owner: checkLeaseOwner(options.owner), leaseMs: checkLeaseMs(options.leaseMs) }
      : undefined;
    const now = this.nowMs();
    const row: MovementEntity = {
      originId,
      intent: JSON.stringify(intent),
      fingerprint,
      status: PENDING_STATUS,
      amount: intent.amount,
      currencyId: intent.currencyId,
      bankMovementId: null,
      networkId: null,
      network: null,
      postingDatetime: null,
      completedDatetime: null,
      lastBankAnswer: null,
      attempts: lease ? 1 : 0,
      queries: 0,
      lastError: null,
      lastAnswerAtMs: null,
      nextQueryAtMs: now,
      leaseOwner: lease?.owner ?? null,
      leaseExpiresAtMs: lease ? now + lease.leaseMs : null,
      version: 1,
      createdAtMs: now,
      updatedAtMs: now,
    };
    return this.transactions.run('write', async (manager) => {
      // No look-up first: the primary key already tells whether the originId is taken (the common case, a
      // new id, then costs one statement less).
      if (!(await this.insertMovement(manager, row))) {
        return { movement: toMovementRecord(await this.getMovement(manager, originId)), created: false };
      }
      const history = await this.insertIntentHistory(manager, originId, now);
      return { created: true, movement: toMovementRecord(row), history: [toHistoryRecord(history)] };
    });
  }

  /**
   * Leases up to `limit` due movements: not final, nextQueryAt ≤ dueBy (default now), lease free or expired.
   * Never-acknowledged ones (PENDING: creations) first, then by nextQueryAt. Concurrent claimers never get the
   * same row (Postgres: FOR UPDATE SKIP LOCKED; SQLite: one writer at a time).
   */
  async claimDue(options: ClaimDueOptions): Promise<MovementRecord[]> {
    const owner = checkLeaseOwner(options.owner);
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const leaseMs = checkLeaseMs(options.leaseMs);
    const now = options.now === undefined ? this.nowMs() : checkDate(options.now, 'now');
    const times = { nowMs: now, dueByMs: options.dueBy === undefined ? now : checkDate(options.dueBy, 'dueBy') };
    return this.transactions.run('write', async (manager) => {
      const pending = await selectDue(manager, this.engine, 'pending', times, limit);
      const others =
        pending.length < limit ? await selectDue(manager, this.engine, 'others', times, limit - pending.length) : [];
      const due = inClaimOrder([...pending, ...others]);
      if (due.length === 0) return [];
      const lease = { leaseOwner: owner, leaseExpiresAtMs: now + leaseMs, updatedAtMs: now };
      const ids = due.map((row) => row.originId);
      await manager.query(
        placeholdersFor(
          this.engine,
          `UPDATE "giro_movements" SET "lease_owner" = ?, "lease_expires_at_ms" = ?, "updated_at_ms" = ?,
            "version" = "version" + 1 WHERE "origin_id" IN (${ids.map(() => '?').join(', ')})`,
        ),
        [lease.leaseOwner, lease.leaseExpiresAtMs, lease.updatedAtMs, ...ids],
      );
      return due.map((row) => toMovementRecord({ ...row, ...lease, version: row.version + 1 }));
    });
  }

  /**
   * The earliest nextQueryAt among movements not final and not under an unexpired lease (what a claim could
   * take once due, possibly already past); null when there is none. For a scheduler's next wake-up.
   */
  async nextDueAt(): Promise<Date | null> {
    const now = this.nowMs();
    return this.transactions.run('read', async (manager) => {
      const dueMs = await selectNextDueMs(manager, this.engine, now);
      return dueMs === null ? null : new Date(dueMs);
    });
  }

  /**
   * Leases one movement whatever its schedule (a manual refresh). Null when someone holds an unexpired lease
   * on it (this owner included: a lease is exclusive to one piece of work).
   */
  async claim(originId: number, owner: string, leaseMs: number): Promise<MovementRecord | null> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    checkLeaseMs(leaseMs);
    const now = this.nowMs();
    return this.transactions.run('write', async (manager) => {
      const row = await this.getMovement(manager, originId, { lock: true });
      if (row.leaseExpiresAtMs !== null && row.leaseExpiresAtMs > now) return null;
      const lease = { leaseOwner: owner, leaseExpiresAtMs: now + leaseMs, updatedAtMs: now };
      await manager
        .createQueryBuilder()
        .update(MovementEntity)
        .set({ ...lease, version: () => '"version" + 1' })
        .where('"origin_id" = :originId', { originId })
        .execute();
      return toMovementRecord({ ...row, ...lease, version: row.version + 1 });
    });
  }

  /**
   * Counts one more send, durably, before a re-send. False means "do not send": the lease is not the
   * caller's, or the movement is final.
   */
  async markSendAttempt(originId: number, owner: string): Promise<boolean> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    const now = this.nowMs();
    return this.transactions.run('write', async (manager) => {
      const result = await this.fencedUpdate(manager, originId, owner, now)
        .set({ attempts: () => '"attempts" + 1', version: () => '"version" + 1', updatedAtMs: now })
        .andWhere('"status" NOT IN (:...finals)', { finals: FINALS })
        .execute();
      return result.affected === 1;
    });
  }

  /**
   * Writes what was learned about a leased movement: the patch, its history rows and (when it becomes FAILED)
   * its cancellation, all in one transaction, only while the caller's lease is unexpired.
   * Throws MovementUpdateRejectedError for an update that breaks the movement's rules (nothing written).
   */
  async applyUpdate(originId: number, owner: string, update: MovementUpdate): Promise<ApplyUpdateResult> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    checkPatch(update.patch);
    for (const [index, entry] of (update.history ?? []).entries()) checkHistoryEntry(entry, `history[${index}]`);
    const now = this.nowMs();
    const status = update.patch.status;
    // Built property by property: on Node 20 a literal that spreads and then adds properties gets a new
    // hidden class at every evaluation (old-space garbage on every answer of a sweep).
    const values = patchColumns(update.patch);
    if (status !== undefined && isFinalStatus(status)) values.nextQueryAtMs = null;
    if (update.releaseLease) {
      values.leaseOwner = null;
      values.leaseExpiresAtMs = null;
    }
    values.updatedAtMs = now;
    const guard = guardOf(update);
    const write: FencedWrite | undefined = guard && {
      originId,
      owner,
      nowMs: now,
      values,
      countQuery: update.countQuery === true,
      uncountSend: update.uncountSend === true,
      history: (update.history ?? []).map((entry) => ({
        to: entry.to,
        source: entry.source,
        detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      })),
      guard,
    };
    // The common case (an answer that changes no status): one fenced UPDATE, atomic on its own (on Postgres
    // possibly one row of a batch statement). When it matches nothing, the transaction below only tells why
    // (only the lease's owner changes a leased row, so running the same UPDATE again could not match).
    const alone = write !== undefined && write.history.length === 0 && !update.cancellation;
    if (alone) {
      const movement = await this.writeWithoutHistory(write);
      if (movement) return { applied: true, movement: toMovementRecord(movement), history: [], cancellation: null };
    }
    return this.transactions.run('write', async (manager) => {
      const written = write && !alone && (await runFencedWrite(manager, this.engine, write));
      if (!written) {
        // Nothing written: read the row to tell a lost lease from an update the rules refuse.
        const row = await this.getMovement(manager, originId, { lock: true });
        if (row.leaseOwner !== owner || row.leaseExpiresAtMs === null || row.leaseExpiresAtMs <= now) {
          return { applied: false };
        }
        checkTransition(row, status ?? row.status, update);
        throw new MovementUpdateRejectedError(originId, 'the movement changed during the update');
      }
      let cancellation: CancellationRecord | null = null;
      if (update.cancellation) {
        const entity: CancellationEntity = {
          originId,
          amount: written.movement.amount,
          currencyId: written.movement.currencyId,
          reasonCode: update.cancellation.code,
          reasonMessage: update.cancellation.message,
          createdAtMs: now,
          acknowledgedAtMs: null,
        };
        // The primary key refuses a second cancellation: the whole update then rolls back.
        await manager
          .createQueryBuilder()
          .insert()
          .into(CancellationEntity)
          .values(entity)
          .updateEntity(false)
          .execute();
        cancellation = toCancellationRecord(entity);
      }
      return {
        applied: true,
        movement: toMovementRecord(written.movement),
        history: written.history.map(toHistoryRecord),
        cancellation,
      };
    });
  }

  /** Gives up the caller's lease; false when it was not the caller's. */
  async releaseLease(originId: number, owner: string): Promise<boolean> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    const now = this.nowMs();
    return this.transactions.run('write', async (manager) => {
      const result = await this.leaseRelease(manager, owner, now)
        .andWhere('"origin_id" = :originId', { originId })
        .execute();
      return result.affected === 1;
    });
  }

  /** Gives up every lease of `owner` (graceful shutdown); returns how many. */
  async releaseAllLeases(owner: string): Promise<number> {
    checkLeaseOwner(owner);
    const now = this.nowMs();
    return this.transactions.run('write', async (manager) => {
      const result = await this.leaseRelease(manager, owner, now).execute();
      return result.affected ?? 0;
    });
  }

  /** The movement with its history (oldest first) and its cancellation; null when unknown. */
  async findByOriginId(originId: number): Promise<MovementDetails | null> {
    checkOriginId(originId);
    return this.transactions.run('read', async (manager) => {
      const row = await this.selectMovement(manager, originId);
      if (!row) return null;
      const [details] = await this.withDetails(manager, [row]);
      return details;
    });
  }

  /** A page of movements by originId, optionally of one status. */
  async list(options: ListMovementsOptions): Promise<MovementPage> {
    const query = this.pageQuery(options);
    return this.transactions.run('read', async (manager) => query.page(await query.rows(manager), toMovementRecord));
  }

  /** `list`, each movement with its history and cancellation (two more queries for the whole page). */
  async listDetails(options: ListMovementsOptions): Promise<MovementPage<MovementDetails>> {
    const query = this.pageQuery(options);
    return this.transactions.run('read', async (manager) => {
      const { items, nextCursor } = query.page(await query.rows(manager), (row) => row);
      return { items: await this.withDetails(manager, items), nextCursor };
    });
  }

  /** How many movements are due (not final, nextQueryAt ≤ now), leased or not: the backlog of a sweep. */
  async countDue(now?: Date): Promise<number> {
    const nowMs = now === undefined ? this.nowMs() : checkDate(now, 'now');
    return this.transactions.run('read', (manager) =>
      manager
        .createQueryBuilder(MovementEntity, 'm')
        .where('m.status NOT IN (:...finals)', { finals: FINALS })
        .andWhere('m.nextQueryAtMs <= :now', { now: nowMs })
        .getCount(),
    );
  }

  /** Cancellations, oldest first; only unacknowledged (false) or acknowledged (true) ones when asked. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationRecord[]> {
    if (filter.acknowledged !== undefined && typeof filter.acknowledged !== 'boolean') {
      throw new StoreArgumentError('acknowledged', 'type', 'must be a boolean');
    }
    return this.transactions.run('read', async (manager) => {
      const query = manager
        .createQueryBuilder(CancellationEntity, 'c')
        .orderBy('c.createdAtMs', 'ASC')
        .addOrderBy('c.originId', 'ASC');
      if (filter.acknowledged === true) query.where('c.acknowledgedAtMs IS NOT NULL');
      if (filter.acknowledged === false) query.where('c.acknowledgedAtMs IS NULL');
      return (await query.getMany()).map(toCancellationRecord);
    });
  }

  /** Marks the cancellation as registered by the host. Idempotent: the first acknowledgement's time stays. */
  async acknowledgeCancellation(originId: number): Promise<CancellationRecord> {
    checkOriginId(originId);
    const now = this.nowMs();
    return this.transactions.run('write', async (manager) => {
      await manager
        .createQueryBuilder()
        .update(CancellationEntity)
        .set({ acknowledgedAtMs: now })
        .where('"origin_id" = :originId AND "acknowledged_at_ms" IS NULL', { originId })
        .execute();
      const row = await manager
        .createQueryBuilder(CancellationEntity, 'c')
        .where('c.originId = :originId', { originId })
        .getOne();
      if (!row) throw new CancellationNotFoundError(originId);
      return toCancellationRecord(row);
    });
  }

  /** How many movements are in each status (every status present, 0 included). */
  async countByStatus(): Promise<Record<MovementStatus, number>> {
    return this.transactions.run('read', async (manager) => {
      const rows: { status: MovementStatus; count: string | number }[] = await manager
        .createQueryBuilder(MovementEntity, 'm')
        .select('m.status', 'status')
        .addSelect('COUNT(*)', 'count')
        .groupBy('m.status')
        .getRawMany();
      const counts = Object.fromEntries(MOVEMENT_STATUSES.map((status) => [status, 0])) as Record<
        MovementStatus,
        number
      >;
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    });
  }

  async countUnacknowledgedCancellations(): Promise<number> {
    return this.transactions.run('read', (manager) =>
      manager.createQueryBuilder(CancellationEntity, 'c').where('c.acknowledgedAtMs IS NULL').getCount(),
    );
  }

  /** Checks the options of a page now (before any transaction) and builds its query. */
  private pageQuery(options: ListMovementsOptions) {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    if (options.status !== undefined && !isMovementStatus(options.status)) {
      throw new StoreArgumentError('status', 'status', `must be one of ${MOVEMENT_STATUSES.join(', ')}`);
    }
    const after = options.after === undefined ? undefined : parseCursor(options.after);
    return {
      rows(manager: EntityManager): Promise<MovementEntity[]> {
        const query = manager
          .createQueryBuilder(MovementEntity, 'm')
          .orderBy('m.originId', 'ASC')
          .limit(limit + 1);
        if (options.status !== undefined) query.andWhere('m.status = :status', { status: options.status });
        if (after !== undefined) query.andWhere('m.originId > :after', { after });
        return query.getMany();
      },
      page<T>(rows: MovementEntity[], map: (row: MovementEntity) => T): MovementPage<T> {
        const kept = rows.slice(0, limit);
        const nextCursor = rows.length > limit ? String(kept[kept.length - 1].originId) : null;
        return { items: kept.map(map), nextCursor };
      },
    };
  }

  /** The rows with their history (oldest first) and cancellations, in the rows' order. */
  private async withDetails(manager: EntityManager, rows: MovementEntity[]): Promise<MovementDetails[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.originId);
    const history = await manager
      .createQueryBuilder(MovementHistoryEntity, 'h')
      .where('h.originId IN (:...ids)', { ids })
      .orderBy('h.id', 'ASC')
      .getMany();
    const cancellations = await manager
      .createQueryBuilder(CancellationEntity, 'c')
      .where('c.originId IN (:...ids)', { ids })
      .getMany();
    const historyOf = new Map<number, HistoryRecord[]>(ids.map((id) => [id, []]));
    for (const entity of history) historyOf.get(entity.originId)?.push(toHistoryRecord(entity));
    const cancellationOf = new Map(cancellations.map((entity) => [entity.originId, toCancellationRecord(entity)]));
    // Object.assign, not a spread followed by properties (a new hidden class per row on Node 20).
    return rows.map((row) =>
      Object.assign(toMovementRecord(row), {
        history: historyOf.get(row.originId) ?? [],
        cancellation: cancellationOf.get(row.originId) ?? null,
      }),
    );
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  private selectMovement(
    manager: EntityManager,
    originId: number,
    options: { lock?: boolean } = {},
  ): Promise<MovementEntity | null> {
    let query: SelectQueryBuilder<MovementEntity> = manager
      .createQueryBuilder(MovementEntity, 'm')
      .where('m.originId = :originId', { originId });
    // SQLite has no row locks: the write transaction already excludes every other writer.
    if (options.lock && this.engine === 'postgres') query = query.setLock('pessimistic_write');
    return query.getOne();
  }

  private async getMovement(
    manager: EntityManager,
    originId: number,
    options: { lock?: boolean } = {},
  ): Promise<MovementEntity> {
    const row = await this.selectMovement(manager, originId, options);
    if (!row) throw new MovementNotFoundError(originId);
    return row;
  }

  /** Inserts a new movement; false when its originId is already stored (nothing written). */
  private async insertMovement(manager: EntityManager, row: MovementEntity): Promise<boolean> {
    // Fixed text with placeholders, prepared once (a query builder would write the numbers into the SQL).
    // ON CONFLICT DO NOTHING on both engines: it skips only a uniqueness conflict (NOT NULL and CHECK
    // failures still throw), and on Postgres it leaves the transaction usable, unlike a failed INSERT.
    const { sql, properties } = movementInsertFor(manager.connection.getMetadata(MovementEntity), this.engine);
    const values = properties.map((property) => row[property]);
    return (await queryWithCount(manager, sql, values)).affected === 1;
  }

  /** The first history row of a movement (null → PENDING), as stored. */
  private async insertIntentHistory(
    manager: EntityManager,
    originId: number,
    atMs: number,
  ): Promise<MovementHistoryEntity> {
    const result = await queryWithCount(manager, INSERT_INTENT_HISTORY[this.engine], [
      originId,
      PENDING_STATUS,
      atMs,
      'intent',
    ]);
    const [row] = result.records ?? [];
    return historyFromRow(row);
  }

  /** An UPDATE of one movement that matches only while `owner` holds an unexpired lease on it. */
  private fencedUpdate(manager: EntityManager, originId: number, owner: string, nowMs: number) {
    return manager
      .createQueryBuilder()
      .update(MovementEntity)
      .where('"origin_id" = :originId', { originId })
      .andWhere('"lease_owner" = :owner', { owner })
      .andWhere('"lease_expires_at_ms" > :now', { now: nowMs });
  }

  private leaseRelease(manager: EntityManager, owner: string, nowMs: number) {
    return manager
      .createQueryBuilder()
      .update(MovementEntity)
      .set({ leaseOwner: null, leaseExpiresAtMs: null, updatedAtMs: nowMs, version: () => '"version" + 1' })
      .where('"lease_owner" = :owner', { owner });
  }
}

function checkDate(value: unknown, field: string): number {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new StoreArgumentError(field, 'date', 'must be a valid Date');
  }
  return value.getTime();
}

function checkPatch(patch: MovementPatch): void {
  if (typeof patch !== 'object' || patch === null) throw new StoreArgumentError('patch', 'type', 'must be an object');
  if (patch.status !== undefined && !isMovementStatus(patch.status)) {
    throw new StoreArgumentError('patch.status', 'status', `must be one of ${MOVEMENT_STATUSES.join(', ')}`);
  }
  for (const field of ['lastAnswerAt', 'nextQueryAt'] as const) {
    if (patch[field] !== undefined && patch[field] !== null) checkDate(patch[field], `patch.${field}`);
  }
}

function checkHistoryEntry(entry: HistoryEntry, field: string): void {
  if (!isMovementStatus(entry?.to)) {
    throw new StoreArgumentError(`${field}.to`, 'status', `must be one of ${MOVEMENT_STATUSES.join(', ')}`);
  }
  if (!(HISTORY_SOURCES as readonly unknown[]).includes(entry.source)) {
    throw new StoreArgumentError(`${field}.source`, 'history_source', `must be one of ${HISTORY_SOURCES.join(', ')}`);
  }
}

/**
 * The rules of `checkTransition` decided from the update alone, as the statuses the movement may have now
 * (checked in the same statement as the write); undefined when no status would do.
 */
function guardOf(update: MovementUpdate): FencedWrite['guard'] | undefined {
  const status = update.patch.status;
  if (status === undefined) return update.cancellation ? undefined : { kind: 'any' };
  const mayStay = !update.cancellation;
  const mayChange =
    (update.history ?? []).some((entry) => entry.to === status && entry.source !== 'anomaly') &&
    (status === 'FAILED') === Boolean(update.cancellation);
  if (mayStay && mayChange) return { kind: 'same-or-changing', status };
  if (mayStay) return { kind: 'only', status };
  if (mayChange) return { kind: 'changing', status };
  return undefined;
}

/** The rules of a movement's life that the store keeps even if a caller forgets them. */
function checkTransition(row: MovementEntity, status: MovementStatus, update: MovementUpdate): void {
  const reject = (reason: string) => new MovementUpdateRejectedError(row.originId, reason);
  const changes = status !== row.status;
  if (changes && isFinalStatus(row.status)) {
    throw reject(`${row.status} is final and cannot become ${status} (record an anomaly instead)`);
  }
  if (changes && !(update.history ?? []).some((entry) => entry.to === status && entry.source !== 'anomaly')) {
    throw reject(`the change to ${status} needs a history entry to ${status}`);
  }
  const becomesFailed = changes && status === 'FAILED';
  if (becomesFailed && !update.cancellation) throw reject('FAILED needs its cancellation in the same update');
  if (!becomesFailed && update.cancellation)
    throw reject('a cancellation is written only when the status becomes FAILED');
}

function patchColumns(patch: MovementPatch): Partial<MovementEntity> {
  const columns: Partial<MovementEntity> = {};
  if (patch.status !== undefined) columns.status = patch.status;
  if (patch.bankMovementId !== undefined) columns.bankMovementId = patch.bankMovementId;
  if (patch.networkId !== undefined) columns.networkId = patch.networkId;
  if (patch.network !== undefined) columns.network = patch.network;
  if (patch.postingDatetime !== undefined) columns.postingDatetime = patch.postingDatetime;
  if (patch.completedDatetime !== undefined) columns.completedDatetime = patch.completedDatetime;
  if (patch.lastBankAnswer !== undefined) {
    columns.lastBankAnswer = patch.lastBankAnswer === null ? null : JSON.stringify(patch.lastBankAnswer);
  }
  if (patch.lastError !== undefined) columns.lastError = patch.lastError;
  if (patch.lastAnswerAt !== undefined) columns.lastAnswerAtMs = patch.lastAnswerAt?.getTime() ?? null;
  if (patch.nextQueryAt !== undefined) columns.nextQueryAtMs = patch.nextQueryAt?.getTime() ?? null;
  return columns;
}

function parseCursor(after: unknown): number {
  if (typeof after !== 'string' || !CURSOR.test(after) || !Number.isSafeInteger(Number(after))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return Number(after);
}
