import type { EntityManager } from 'typeorm';
import {
  type AccountLimits,
  amountFromCents,
  amountToCents,
  checkLimits,
  type DailyUsage,
  type DecimalAmount,
  type LimitRefusal,
  type SourceAccountLimits,
} from '../domain';
import { queryWithCount } from './engine/query-with-count';
import { LimitExceededError } from './persistence.errors';
import type { StoreContext } from './store-context';

// The daily limits of source accounts, kept atomically: an intent takes its share of its account's day with one
// upsert whose condition is the limit, in the intent's own transaction. On Postgres the upsert locks the
// (address, day) row, so a replica racing for the last share waits and then sees the other's total: at most one
// passes. On SQLite every write transaction already holds the one write lock. A refused share throws, and the
// intent's transaction rolls back: nothing is stored, so nothing is sent.

const USAGE = '"giro_limit_usage"';

/** The upsert of a share, for the daily limits an account has (each variant a fixed text with placeholders). */
function takeStatement(amountLimit: boolean, countLimit: boolean): string {
  const conditions = [
    ...(amountLimit ? [`${USAGE}."amount_cents" + excluded."amount_cents" <= ?`] : []),
    ...(countLimit ? [`${USAGE}."transfers" + 1 <= ?`] : []),
  ];
  return `INSERT INTO ${USAGE} ("address", "day", "amount_cents", "transfers") VALUES (?, ?, ?, 1)
    ON CONFLICT ("address", "day") DO UPDATE SET
      "amount_cents" = ${USAGE}."amount_cents" + excluded."amount_cents", "transfers" = ${USAGE}."transfers" + 1
    WHERE ${conditions.join(' AND ')}
    RETURNING "amount_cents", "transfers"`;
}

const TAKE_VARIANTS = {
  amount: takeStatement(true, false),
  count: takeStatement(false, true),
  both: takeStatement(true, true),
} as const;

const FREE = `UPDATE ${USAGE} SET "amount_cents" = "amount_cents" - ?, "transfers" = "transfers" - 1
  WHERE "address" = ? AND "day" = ?`;
const READ_ONE = `SELECT "amount_cents", "transfers" FROM ${USAGE} WHERE "address" = ? AND "day" = ?`;
const READ_DAY = `SELECT "address", "amount_cents", "transfers" FROM ${USAGE} WHERE "day" = ? ORDER BY "address"`;

/** A usage row's numbers (Postgres returns bigint as a string; a cents total is read exactly as a bigint). */
function usageOf(row: Record<string, unknown> | undefined): DailyUsage {
  if (row === undefined) return { amount: amountFromCents(0n), transfers: 0 };
  return { amount: amountFromCents(BigInt(String(row.amount_cents))), transfers: Number(row.transfers) };
}

/** What one account has used of one day. */
export interface LimitUsageRecord extends DailyUsage {
  address: string;
  day: string;
}

/** A movement's share of its day: its source account, the day it counts in, its amount. */
export interface LimitShare {
  address: string;
  day: string;
  amount: DecimalAmount;
}

/** MovementStore's part of the limits: shares taken with intents, freed by FAILED, and a day's usage read. */
export class LimitUsage {
  constructor(
    private readonly context: StoreContext,
    private readonly limits: SourceAccountLimits | undefined,
  ) {}

  /** The limits of transfers from `address`; undefined when none are configured for it. */
  limitsOf(address: string): AccountLimits | undefined {
    return this.limits?.of(address);
  }

  /**
   * Takes a new intent's share of its account's limits, in the intent's transaction: the per-transfer maximum
   * checked here, the daily ones by one upsert (only when the account has one). Throws LimitExceededError when a
   * limit would be passed (the caller's transaction then rolls back).
   */
  async take(manager: EntityManager, share: { address: string; day: string | null; amount: DecimalAmount }) {
    const limits = this.limitsOf(share.address);
    if (limits === undefined) return;
    // A transfer over a limit on its own needs no row (and the upsert's plain INSERT would not check it).
    const alone = checkLimits(limits, share.address, share.amount, usageOf(undefined));
    if (alone !== undefined) throw new LimitExceededError(alone);
    if (share.day === null) return;
    const variant =
      limits.dailyAmount !== null && limits.dailyCount !== null
        ? TAKE_VARIANTS.both
        : limits.dailyAmount !== null
          ? TAKE_VARIANTS.amount
          : TAKE_VARIANTS.count;
    // Cents as JS numbers: every amount and limit is at most MAX_WIRE_AMOUNT (about 10^15 cents, below 2^53).
    // Not strings: SQLite compares a text parameter as greater than any number.
    const cents = Number(amountToCents(share.amount));
    const parameters: unknown[] = [share.address, share.day, cents];
    if (limits.dailyAmount !== null) parameters.push(Number(amountToCents(limits.dailyAmount)));
    if (limits.dailyCount !== null) parameters.push(limits.dailyCount);
    const taken = await queryWithCount(manager, this.context.engine.sql(variant), parameters);
    if ((taken.records ?? []).length > 0) return;
    // Refused: the row is there (on Postgres locked by the upsert); what it holds says which limit and what remains.
    const [row] = (await queryWithCount(manager, this.context.engine.sql(READ_ONE), [share.address, share.day]))
      .records as Record<string, unknown>[];
    const refusal: LimitRefusal = checkLimits(limits, share.address, share.amount, usageOf(row)) ?? {
      // Unreachable unless the limits and the statement disagree; refuse rather than pass.
      rule: 'daily_amount',
      address: share.address,
      limit: limits.dailyAmount ?? share.amount,
      remaining: amountFromCents(0n),
    };
    throw new LimitExceededError(refusal);
  }

  /** Gives a movement's share back to its day, in the transaction of its change to FAILED. */
  async free(manager: EntityManager, share: LimitShare): Promise<void> {
    await queryWithCount(manager, this.context.engine.sql(FREE), [
      Number(amountToCents(share.amount)),
      share.address,
      share.day,
    ]);
  }

  /**
   * What the limits would say of new intents, taken in this order, each on its `day` (a scheduled one's execution
   * day) or else on `today`, without taking anything: for each share, the refusal it would meet after the
   * account's usage of that day and the shares before it that pass, or undefined. A preview only: other intents
   * may take their shares before these are requested.
   */
  async preview(
    shares: { address: string; amount: DecimalAmount; day?: string }[],
    today: string,
  ): Promise<(LimitRefusal | undefined)[]> {
    if (shares.every((share) => this.limitsOf(share.address) === undefined)) return shares.map(() => undefined);
    const days = [...new Set(shares.map((share) => share.day ?? today))];
    const used = new Map<string, DailyUsage>();
    for (const day of days) {
      for (const record of await this.usageOn(day)) used.set(`${day}:${record.address}`, record);
    }
    return shares.map((share) => {
      const limits = this.limitsOf(share.address);
      if (limits === undefined) return undefined;
      const key = `${share.day ?? today}:${share.address}`;
      const usage = used.get(key) ?? usageOf(undefined);
      const refusal = checkLimits(limits, share.address, share.amount, usage);
      if (refusal === undefined) {
        used.set(key, {
          amount: amountFromCents(amountToCents(usage.amount) + amountToCents(share.amount)),
          transfers: usage.transfers + 1,
        });
      }
      return refusal;
    });
  }

  /** What each account has used of `day` (only the accounts with a row: the others used nothing). */
  async usageOn(day: string): Promise<LimitUsageRecord[]> {
    const rows: Record<string, unknown>[] = await this.context.dataSource.query(this.context.engine.sql(READ_DAY), [
      day,
    ]);
    return rows.map((row) => ({ address: String(row.address), day, ...usageOf(row) }));
  }
}
