import type { DataSource } from 'typeorm';
import { type Clock, MAX_ORIGIN_ID } from '../domain';
import { AsyncMutex } from './engine/async-mutex';
import { type EngineAdapter, engineAdapterFor } from './engine/engine-adapter';
import type { Transactions } from './engine/transactions';
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

// Each block moves the counter forward in one statement (EngineAdapter.advanceOriginIdCounter), never below the
// highest originId stored + 1 nor below now ms × ORIGIN_IDS_PER_MS (see origin-id-counter.ts).

/**
 * The source of originIds: strictly increasing in one allocator, never reused, across restarts, replicas and
 * restores (see the floor above). Ids are taken from the database in blocks, one commit per block, and handed
 * out from memory, so a transfer does not pay a commit of its own for its id. A block belongs to this
 * allocator alone; its start obeys the floor when it is taken. Gaps are normal: the rest of a block when the
 * process stops, ids taken by a caller that then died, are simply never used.
 */
export class OriginIdAllocator {
  private readonly engine: EngineAdapter;
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
    this.engine = engineAdapterFor(dataSource);
    this.transactions = options.transactions ?? this.engine.transactions;
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
      const next = BigInt(await this.engine.advanceOriginIdCounter(manager, COUNTER_NAME, timeFloor, size));
      // Checked inside the transaction, so an exhausted range is rolled back and refused every time.
      if (next - 1n > BigInt(MAX_ORIGIN_ID)) {
        throw new RangeError(`originIds exhausted: the next ones would exceed ${MAX_ORIGIN_ID} (2^53−1)`);
      }
      return Number(next) - size;
    });
  }
}
