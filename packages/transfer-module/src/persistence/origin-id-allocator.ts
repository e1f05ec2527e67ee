import type { DataSource } from 'typeorm';
import { type Clock, MAX_ORIGIN_ID } from '../domain';
import { AsyncMutex } from './engine/async-mutex';
import { engineOf } from './engine/database-engine';
import { type Transactions, transactionsFor } from './engine/transactions';
import { checkInteger } from './store-arguments';

/**
 * Ids per millisecond of the time floor: `now ms × 1000` stays below 2^53 until the year 2255, and 1000 ids
 * per millisecond is far more than a bank accepts.
 */
export const ORIGIN_IDS_PER_MS = 1000;

/** The most ids one call may take. */
export const MAX_ORIGIN_ID_BATCH = 1000;

/** Ids taken from the database per allocator commit by default (see OriginIdAllocator). */
export const DEFAULT_ORIGIN_ID_BLOCK_SIZE = 100;

export interface OriginIdAllocatorOptions {
  transactions?: Transactions;
  /** Ids taken per commit and handed out from memory (1 … MAX_ORIGIN_ID_BATCH; default 100). */
  blockSize?: number;
}

const COUNTER_NAME = 'originId';

// One statement: it creates the counter row or moves it forward, and returns its new value. The first id
// handed out is the largest of
//   - the persisted counter (never hands out an id twice while the database keeps its state),
//   - the highest originId stored + 1 (skips ids the host supplied itself),
//   - now ms × ORIGIN_IDS_PER_MS (after a restore from an old backup the counter is old, but time has moved
//     on: ids issued before the restore were below this floor, as long as fewer than ORIGIN_IDS_PER_MS
//     were allocated per millisecond on average).
// better-sqlite3 binds JS numbers as REAL: the casts keep the arithmetic in exact 64-bit integers.
const SQLITE_ALLOCATE = `
  INSERT INTO "giro_origin_id_counter" ("name", "next_value")
  VALUES (?, MAX(CAST(? AS INTEGER), (SELECT COALESCE(MAX("origin_id"), 0) + 1 FROM "giro_movements")) + CAST(? AS INTEGER))
  ON CONFLICT ("name") DO UPDATE
    SET "next_value" = MAX("giro_origin_id_counter"."next_value" + CAST(? AS INTEGER), "excluded"."next_value")
  RETURNING CAST("next_value" AS TEXT) AS "next_value"`;

const POSTGRES_ALLOCATE = `
  INSERT INTO "giro_origin_id_counter" ("name", "next_value")
  VALUES ($1, GREATEST($2::bigint, (SELECT COALESCE(MAX("origin_id"), 0) + 1 FROM "giro_movements")) + $3::bigint)
  ON CONFLICT ("name") DO UPDATE
    SET "next_value" = GREATEST("giro_origin_id_counter"."next_value" + $3::bigint, EXCLUDED."next_value")
  RETURNING CAST("next_value" AS TEXT) AS "next_value"`;

/**
 * The source of originIds: strictly increasing in one allocator, never reused, across restarts, replicas and
 * restores (see the floor above). Ids are taken from the database in blocks, one commit per block, and handed
 * out from memory, so a transfer does not pay a commit of its own for its id. A block belongs to this
 * allocator alone; its start obeys the floor when it is taken. Gaps are normal: the rest of a block when the
 * process stops, ids taken by a caller that then died, are simply never used.
 */
export class OriginIdAllocator {
  private readonly engine;
  private readonly transactions: Transactions;
  private readonly blockSize: number;
  private readonly lock = new AsyncMutex();
  /** The ids of the current block not handed out yet: next … end − 1. */
  private block = { next: 0, end: 0 };
  /** Calls holding or waiting for the lock: while there are any, a new call queues behind them. */
  private queued = 0;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    options: OriginIdAllocatorOptions = {},
  ) {
    this.engine = engineOf(dataSource);
    this.transactions = options.transactions ?? transactionsFor(dataSource);
    this.blockSize = checkInteger(
      options.blockSize ?? DEFAULT_ORIGIN_ID_BLOCK_SIZE,
      'blockSize',
      1,
      MAX_ORIGIN_ID_BATCH,
    );
  }

  /** `count` consecutive new originIds (1 … MAX_ORIGIN_ID_BATCH): from the current block, or a new one. */
  async allocate(count = 1): Promise<number[]> {
    checkInteger(count, 'count', 1, MAX_ORIGIN_ID_BATCH);
    // The common case, ids left in the block and nobody queued: taken at once, without the lock's promises
    // (no other call can run between the check and the take).
    const first = this.queued === 0 && this.hasRoomFor(count) ? this.take(count) : await this.takeQueued(count);
    return Array.from({ length: count }, (_, index) => first + index);
  }

  private async takeQueued(count: number): Promise<number> {
    this.queued += 1;
    try {
      return await this.lock.runExclusive(async () => {
        if (!this.hasRoomFor(count)) {
          // What is left of the old block is dropped: the ids handed out in one call are consecutive.
          const size = Math.max(count, this.blockSize);
          const start = await this.takeBlock(size);
          this.block = { next: start, end: start + size };
        }
        return this.take(count);
      });
    } finally {
      this.queued -= 1;
    }
  }

  private hasRoomFor(count: number): boolean {
    return this.block.end - this.block.next >= count;
  }

  /** The first of `count` ids of the current block, which has room for them. */
  private take(count: number): number {
    const taken = this.block.next;
    this.block.next += count;
    return taken;
  }

  /** The first of `size` new consecutive ids, moved past in the database in one statement and one commit. */
  private takeBlock(size: number): Promise<number> {
    const timeFloor = this.clock.now().getTime() * ORIGIN_IDS_PER_MS;
    return this.transactions.write(async (manager) => {
      // Read back as text: exact even beyond 2^53, where a JS number would round.
      const rows: { next_value: string }[] =
        this.engine === 'sqlite'
          ? await manager.query(SQLITE_ALLOCATE, [COUNTER_NAME, timeFloor, size, size])
          : await manager.query(POSTGRES_ALLOCATE, [COUNTER_NAME, timeFloor, size]);
      const next = BigInt(rows[0].next_value);
      // Checked inside the transaction, so an exhausted range is rolled back and refused every time.
      if (next - 1n > BigInt(MAX_ORIGIN_ID)) {
        throw new RangeError(`originIds exhausted: the next ones would exceed ${MAX_ORIGIN_ID} (2^53−1)`);
      }
      return Number(next) - size;
    });
  }
}
