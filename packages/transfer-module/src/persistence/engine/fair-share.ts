import type { EntityManager } from 'typeorm';
import { PENDING_STATUS, SCHEDULED_STATUS } from '../../domain';
import type { MovementEntity } from '../entities';
import type { EngineAdapter } from './engine-adapter';
import { movementFromRow } from './raw-rows';

// A fair share of the bank for every source account. Due work waits in two queues: PENDING transfers (creations a
// sweep sends, by next_query_at_ms) and SCHEDULED ones (due at execute_at_ms, released by the claim that takes
// them). Taking a batch from either by its time alone would hand one account's backlog every slot. Instead a batch is
// taken account by account:
//  1. the accounts with work in the queue, walked on the queue's (from_address, time) index one account at a
//     time (a loose index scan: one index probe per account, whatever each account's backlog), starting after the
//     account the previous batch stopped at, so that more accounts than a batch holds are served in turn;
//  2. from each, its share of the batch (its weight × the rounds needed), read in time order on the same index;
//  3. the batch made round by round (weighted round robin: an account of weight w gives w rows a round), each
//     round in time order; what the shares left unused is filled by the caller, in time order. A claim takes
//     both queues' shares and makes its batch of them in rounds again (inRounds).

/** One queue of due work: its status (named in the text, so that the partial index applies) and time column. */
export interface FairQueue {
  status: typeof PENDING_STATUS | typeof SCHEDULED_STATUS;
  time: 'next_query_at_ms' | 'execute_at_ms';
  /** Its partial index on (from_address, time) (migration AccountQueues1797796800000). */
  index: string;
  /** Whether the queue's rows carry a lease to respect (PENDING ones) or not (SCHEDULED ones hold none). */
  leased: boolean;
}

export const PENDING_QUEUE: FairQueue = {
  status: PENDING_STATUS,
  time: 'next_query_at_ms',
  index: 'IDX_giro_movements_pending_account',
  leased: true,
};
export const SCHEDULED_QUEUE: FairQueue = {
  status: SCHEDULED_STATUS,
  time: 'execute_at_ms',
  index: 'IDX_giro_movements_scheduled_account',
  leased: false,
};

/** What a fair share needs of the engine. */
export type FairShareEngine = Pick<
  EngineAdapter,
  'sql' | 'unleased' | 'unleasedParameters' | 'selectShares' | 'indexedBy'
>;

/** An account's share of a batch: at most `quota` of its due rows. */
export interface AccountShare {
  address: string;
  quota: number;
}

/** When the rows are judged: due by `dueByMs`, leases free at `nowMs` for `claimer`. */
export interface ShareTimes {
  dueByMs: number;
  nowMs: number;
  claimer?: string;
}

// Each step finds the first account after the previous one (an index probe); the walk stops after `?` accounts.
// An account's earliest time is its first index entry (ORDER BY … LIMIT 1: SQLite reads MIN(…) of an index range
// whole).
const ACCOUNTS = (engine: Pick<EngineAdapter, 'indexedBy'>, queue: FairQueue) => {
  const from = `"giro_movements" m${engine.indexedBy(queue.index)}`;
  const next = (after: string) => `(SELECT m."from_address" FROM ${from}
    WHERE m."status" = '${queue.status}' AND m."from_address" > ${after} ORDER BY m."from_address" LIMIT 1)`;
  return `WITH RECURSIVE "accounts"("address", "n") AS (
      SELECT ${next('?')}, 1
      UNION ALL
      SELECT ${next('"accounts"."address"')}, "accounts"."n" + 1 FROM "accounts"
        WHERE "accounts"."address" IS NOT NULL AND "accounts"."n" < ?)
    SELECT "address" FROM "accounts" WHERE "address" IS NOT NULL AND (SELECT m."${queue.time}" FROM ${from}
      WHERE m."status" = '${queue.status}' AND m."from_address" = "accounts"."address"
      ORDER BY m."${queue.time}" LIMIT 1) <= ?`;
};

/**
 * The accounts (their from_address) with rows of `queue` due by `dueByMs`, in address order after `after`, among
 * the first `max` accounts of the queue after it.
 */
export function accountsStatement(
  engine: Pick<EngineAdapter, 'sql' | 'indexedBy'>,
  queue: FairQueue,
  after: string,
  max: number,
  dueByMs: number,
): { sql: string; parameters: unknown[] } {
  return { sql: engine.sql(ACCOUNTS(engine, queue)), parameters: [after, max, dueByMs] };
}

/**
 * The condition of one account's due rows of `queue` (the account: `address`, an SQL expression): the text both
 * engines' selectShares build on. Its parameters after the address's: shareConditionParameters.
 */
export function shareCondition(
  engine: Pick<EngineAdapter, 'unleased'>,
  queue: FairQueue,
  alias: string,
  address = '?',
): string {
  const lease = queue.leased ? ` AND ${engine.unleased(alias)}` : '';
  return `${alias}."status" = '${queue.status}' AND ${alias}."from_address" = ${address} AND ${alias}."${queue.time}" <= ?${lease}`;
}

/** The parameters of shareCondition after the account's address. */
export function shareConditionParameters(
  engine: Pick<EngineAdapter, 'unleasedParameters'>,
  queue: FairQueue,
  times: ShareTimes,
): unknown[] {
  return [times.dueByMs, ...(queue.leased ? engine.unleasedParameters(times.nowMs, times.claimer) : [])];
}

/**
 * SQLite: one statement per account on the queue's account index (named: without the statistics of ANALYZE,
 * which giro does not run, SQLite would rather read the status's index and sort), each costing microseconds in the
 * process; one writer, no locks.
 */
export async function selectSqliteShares(
  engine: Pick<EngineAdapter, 'unleased' | 'unleasedParameters'>,
  manager: EntityManager,
  queue: FairQueue,
  shares: readonly AccountShare[],
  times: ShareTimes,
): Promise<MovementEntity[]> {
  const sql = `SELECT * FROM "giro_movements" m INDEXED BY "${queue.index}" WHERE ${shareCondition(engine, queue, 'm')}
    ORDER BY m."${queue.time}" LIMIT ?`;
  const rows: MovementEntity[] = [];
  for (const share of shares) {
    const found: Record<string, unknown>[] = await manager.query(sql, [
      share.address,
      ...shareConditionParameters(engine, queue, times),
      share.quota,
    ]);
    rows.push(...found.map(movementFromRow));
  }
  return rows;
}

/**
 * Postgres: one statement, each account's rows read by a LATERAL subquery on the index, locked as they are read
 * and skipping what another transaction holds (FOR UPDATE SKIP LOCKED), as the plain claim does.
 */
export async function selectPostgresShares(
  engine: Pick<EngineAdapter, 'sql' | 'unleased' | 'unleasedParameters'>,
  manager: EntityManager,
  queue: FairQueue,
  shares: readonly AccountShare[],
  times: ShareTimes,
): Promise<MovementEntity[]> {
  const condition = shareCondition(engine, queue, 'x', 's."address"');
  const sql = `SELECT m.* FROM unnest(?::varchar[], ?::int[]) AS s("address", "quota")
    CROSS JOIN LATERAL (SELECT * FROM "giro_movements" x WHERE ${condition}
      ORDER BY x."${queue.time}" LIMIT s."quota" FOR UPDATE OF x SKIP LOCKED) m`;
  const rows: Record<string, unknown>[] = await manager.query(engine.sql(sql), [
    shares.map((share) => share.address),
    shares.map((share) => share.quota),
    ...shareConditionParameters(engine, queue, times),
  ]);
  return rows.map(movementFromRow);
}

/** An account's weight: how many of its rows a round takes (1 unless `weights` names it). */
export type AccountWeights = ReadonlyMap<string, number>;

/**
 * Takes at most `limit` due rows of `queue`, shared among the accounts that have some (weighted round robin),
 * starting after the account `cursor.after`; moves the cursor past the accounts it served when there were more
 * than one batch holds. Null when fewer than two accounts have due rows: the caller's plain, time-ordered
 * select is then as fair and cheaper.
 */
export async function selectFairShares(
  manager: EntityManager,
  engine: FairShareEngine,
  queue: FairQueue,
  times: ShareTimes,
  limit: number,
  weights: AccountWeights,
  cursor: { after: string },
): Promise<MovementEntity[] | null> {
  const accounts = await dueAccounts(manager, engine, queue, times.dueByMs, limit, cursor);
  if (accounts.length < 2) return null;
  const weightOf = (address: string) => weights.get(address) ?? 1;
  const rounds = Math.ceil(limit / accounts.reduce((sum, address) => sum + weightOf(address), 0));
  const shares = accounts.map((address) => ({ address, quota: Math.min(limit, weightOf(address) * rounds) }));
  const rows = await engine.selectShares(manager, queue, shares, times);
  return inRounds(rows, weights).slice(0, limit);
}

async function dueAccounts(
  manager: EntityManager,
  engine: Pick<EngineAdapter, 'sql' | 'indexedBy'>,
  queue: FairQueue,
  dueByMs: number,
  max: number,
  cursor: { after: string },
): Promise<string[]> {
  const read = async (after: string, count: number) => {
    const { sql, parameters } = accountsStatement(engine, queue, after, count, dueByMs);
    const rows: { address: string }[] = await manager.query(sql, parameters);
    return rows.map((row) => row.address);
  };
  const accounts = await read(cursor.after, max);
  // From the cursor to the end of the accounts, then from the start up to the cursor.
  if (accounts.length < max && cursor.after !== '') {
    const wrapped = await read('', max - accounts.length);
    accounts.push(...wrapped.filter((address) => address <= cursor.after));
  }
  cursor.after = accounts.length >= max ? accounts[accounts.length - 1] : '';
  return accounts;
}

/**
 * Rows of either queue in rounds: an account's first w rows (its weight) in the first round, the next w in the
 * second…, each account's rows and each round in the order they became due (a scheduled transfer at its moment, a
 * creation at its nextQueryAt).
 */
export function inRounds(rows: MovementEntity[], weights: AccountWeights): MovementEntity[] {
  const weightOf = (address: string) => weights.get(address) ?? 1;
  const timeOf = (row: MovementEntity) =>
    (row.status === SCHEDULED_STATUS ? row.executeAtMs : row.nextQueryAtMs) ?? Number.MAX_SAFE_INTEGER;
  const byTime = [...rows].sort((a, b) => timeOf(a) - timeOf(b) || a.originId - b.originId);
  const seen = new Map<string, number>();
  const round = new Map<number, number>();
  for (const row of byTime) {
    const address = row.fromAddress ?? '';
    const index = seen.get(address) ?? 0;
    seen.set(address, index + 1);
    round.set(row.originId, Math.floor(index / weightOf(address)));
  }
  return byTime.sort(
    (a, b) =>
      (round.get(a.originId) ?? 0) - (round.get(b.originId) ?? 0) || timeOf(a) - timeOf(b) || a.originId - b.originId,
  );
}
