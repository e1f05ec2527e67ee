import type { EntityManager } from 'typeorm';
import {
  AWAITING_APPROVAL_STATUS,
  CANCELED_STATUS,
  FINAL_STATUSES,
  MOVEMENT_STATUSES,
  REJECTED_STATUS,
  SCHEDULED_STATUS,
} from '../domain';
import { queryWithCount } from './engine/query-with-count';
import { writeOutboxEvents } from './outbox';
import type { StoreContext } from './store-context';

/** A count of transfers and the sum of their amounts, in cents. */
export interface CloseTally {
  count: number;
  cents: bigint;
}

/** One source account's figures for one day (which timestamp counts each: docs/reports.md). */
export interface AccountCloseFigures {
  account: string;
  created: CloseTally;
  sent: CloseTally;
  completed: CloseTally;
  failed: CloseTally;
  /** Of `failed`: those whose cancellation the host acknowledged (registered), and the rest. */
  failedRegistered: CloseTally;
  failedUnregistered: CloseTally;
  rejected: CloseTally;
  canceled: CloseTally;
  /** Created before the day's end and not final at it; the oldest's creation time (null when none). */
  pendingAtEnd: CloseTally & { oldestCreatedAtMs: number | null };
  /** Of `pendingAtEnd`: waiting for an approval, and for their scheduled moment, at the day's end. */
  awaitingApprovalAtEnd: CloseTally;
  scheduledAtEnd: CloseTally;
}

/** The day, as the instants it runs between (end excluded), and optionally one source account. */
export interface DailyCloseQuery {
  startMs: number;
  endMs: number;
  account?: string;
}

const NON_FINAL_STATUSES = MOVEMENT_STATUSES.filter(
  (status) => !(FINAL_STATUSES as readonly string[]).includes(status),
);
/** Never handed to the bank (yet, or ever). */
const UNSENT_STATUSES = [AWAITING_APPROVAL_STATUS, SCHEDULED_STATUS, REJECTED_STATUS, CANCELED_STATUS];

const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

// Each query reads one index range: the creation time's (alone, or the source account's), or the final time's.
const CREATED = (account: boolean) => `SELECT m."from_address" AS "account", COUNT(*) AS "count",
    SUM(m."amount_cents") AS "cents",
    SUM(CASE WHEN m."status" IN (${marks(UNSENT_STATUSES)}) THEN 0 ELSE 1 END) AS "sent_count",
    SUM(CASE WHEN m."status" IN (${marks(UNSENT_STATUSES)}) THEN 0 ELSE m."amount_cents" END) AS "sent_cents"
  FROM "giro_movements" m
  WHERE m."created_at_ms" >= ? AND m."created_at_ms" < ?${account ? ' AND m."from_address" = ?' : ''}
  GROUP BY m."from_address"`;

const FINAL = (account: boolean) => `SELECT m."from_address" AS "account", m."status" AS "status",
    COUNT(*) AS "count", SUM(m."amount_cents") AS "cents"
  FROM "giro_movements" m
  WHERE m."final_at_ms" >= ? AND m."final_at_ms" < ?${account ? ' AND m."from_address" = ?' : ''}
  GROUP BY m."from_address", m."status"`;

const FAILED_REGISTERED = (account: boolean) => `SELECT m."from_address" AS "account", COUNT(*) AS "count",
    SUM(m."amount_cents") AS "cents"
  FROM "giro_movements" m JOIN "giro_cancellations" c ON c."origin_id" = m."origin_id"
  WHERE m."final_at_ms" >= ? AND m."final_at_ms" < ? AND m."status" = 'FAILED'
    AND c."acknowledged_at_ms" IS NOT NULL${account ? ' AND m."from_address" = ?' : ''}
  GROUP BY m."from_address"`;

// Not final at the day's end: not final now, or final since. Its status then is its last history row before the
// end (an anomaly's row only names what the bank claimed), read for these rows alone.
const PENDING_AT_END = (account: boolean) => `SELECT p."account", p."status_at_end", COUNT(*) AS "count",
    SUM(p."amount_cents") AS "cents", MIN(p."created_at_ms") AS "oldest"
  FROM (SELECT m."from_address" AS "account", m."amount_cents", m."created_at_ms",
      (SELECT h."to_status" FROM "giro_movement_history" h
        WHERE h."origin_id" = m."origin_id" AND h."at_ms" < ? AND h."source" <> 'anomaly'
        ORDER BY h."id" DESC LIMIT 1) AS "status_at_end"
    FROM "giro_movements" m
    WHERE m."created_at_ms" < ? AND (m."status" IN (${marks(NON_FINAL_STATUSES)}) OR m."final_at_ms" >= ?)
      ${account ? 'AND m."from_address" = ?' : ''}) p
  GROUP BY p."account", p."status_at_end"`;

const INSERT_CLOSED_DAY = `INSERT INTO "giro_closed_days" ("day", "closed_at_ms") VALUES (?, ?)
  ON CONFLICT ("day") DO NOTHING RETURNING "day"`;
const CLOSED_DAY = `SELECT "day" FROM "giro_closed_days" WHERE "day" = ?`;
const LAST_CLOSED_DAY = `SELECT MAX("day") AS "day" FROM "giro_closed_days"`;

type Row = Record<string, unknown>;

/** MovementStore's daily close: a day's figures per source account, read in SQL, and the days announced. */
export class DailyClose {
  constructor(private readonly context: StoreContext) {}

  /** The figures of every source account with a transfer counted in the day (or of `query.account` alone). */
  figures(query: DailyCloseQuery): Promise<AccountCloseFigures[]> {
    return this.context.transactions.read((manager) => this.read(manager, query));
  }

  /** Whether the day's close was announced already. */
  /** The latest day announced, null before the first. */
  async lastClosed(): Promise<string | null> {
    const rows = await this.context.transactions.read((manager) => manager.query(LAST_CLOSED_DAY));
    return (rows[0]?.day as string | null | undefined) ?? null;
  }

  async isClosed(day: string): Promise<boolean> {
    const rows = await this.context.transactions.read((manager) =>
      manager.query(this.context.engine.sql(CLOSED_DAY), [day]),
    );
    return rows.length > 0;
  }

  /**
   * Announces the close of `day` (its bounds in `query`) once: reads its figures, then records the day as closed
   * and writes its events (rendered by the outbox) in one transaction. False, writing nothing, when there is no
   * outbox to announce it, or when another process or an earlier run closed it (the day's key is unique).
   */
  async close(day: string, query: DailyCloseQuery): Promise<boolean> {
    const { outbox, engine } = this.context;
    if (!outbox || (await this.isClosed(day))) return false;
    // Read before the write transaction, which on SQLite holds the only writer, for as long as the read takes.
    const figures = await this.figures(query);
    const now = this.context.nowMs();
    const closed = await this.context.transactions.write(async (manager) => {
      const inserted = await queryWithCount(manager, engine.sql(INSERT_CLOSED_DAY), [day, now]);
      if ((inserted.records ?? []).length === 0) return false;
      await writeOutboxEvents(manager, engine, outbox.renderDailyClose(day, figures, now), now);
      return true;
    });
    if (closed) outbox.committed();
    return closed;
  }

  private async read(manager: EntityManager, query: DailyCloseQuery): Promise<AccountCloseFigures[]> {
    const one = query.account !== undefined;
    const account = one ? [query.account] : [];
    const { startMs, endMs } = query;
    const run = (sql: string, parameters: unknown[]): Promise<Row[]> =>
      manager.query(this.context.engine.sql(sql), parameters);
    const byAccount = new Map<string, AccountCloseFigures>();
    const of = (row: Row) => {
      const key = String(row.account);
      let figures = byAccount.get(key);
      if (figures === undefined) {
        figures = emptyFigures(key);
        byAccount.set(key, figures);
      }
      return figures;
    };
    for (const row of await run(CREATED(one), [...UNSENT_STATUSES, ...UNSENT_STATUSES, startMs, endMs, ...account])) {
      const figures = of(row);
      figures.created = tally(row.count, row.cents);
      figures.sent = tally(row.sent_count, row.sent_cents);
    }
    for (const row of await run(FINAL(one), [startMs, endMs, ...account])) {
      const figures = of(row);
      const key = FINAL_FIGURE[String(row.status)];
      if (key !== undefined) figures[key] = tally(row.count, row.cents);
    }
    for (const row of await run(FAILED_REGISTERED(one), [startMs, endMs, ...account])) {
      of(row).failedRegistered = tally(row.count, row.cents);
    }
    const pending = await run(PENDING_AT_END(one), [endMs, endMs, ...NON_FINAL_STATUSES, endMs, ...account]);
    for (const row of pending) {
      const figures = of(row);
      const part = tally(row.count, row.cents);
      figures.pendingAtEnd = {
        count: figures.pendingAtEnd.count + part.count,
        cents: figures.pendingAtEnd.cents + part.cents,
        oldestCreatedAtMs: earliest(figures.pendingAtEnd.oldestCreatedAtMs, Number(row.oldest)),
      };
      if (row.status_at_end === AWAITING_APPROVAL_STATUS) figures.awaitingApprovalAtEnd = part;
      if (row.status_at_end === SCHEDULED_STATUS) figures.scheduledAtEnd = part;
    }
    for (const figures of byAccount.values()) {
      figures.failedUnregistered = {
        count: figures.failed.count - figures.failedRegistered.count,
        cents: figures.failed.cents - figures.failedRegistered.cents,
      };
    }
    return [...byAccount.values()].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  }
}

const FINAL_FIGURE: Record<string, 'completed' | 'failed' | 'rejected' | 'canceled' | undefined> = {
  COMPLETED: 'completed',
  FAILED: 'failed',
  REJECTED: 'rejected',
  CANCELED: 'canceled',
};

const ZERO: CloseTally = { count: 0, cents: 0n };

/** An account's figures with nothing counted yet. */
export function emptyFigures(account: string): AccountCloseFigures {
  return {
    account,
    created: ZERO,
    sent: ZERO,
    completed: ZERO,
    failed: ZERO,
    failedRegistered: ZERO,
    failedUnregistered: ZERO,
    rejected: ZERO,
    canceled: ZERO,
    pendingAtEnd: { ...ZERO, oldestCreatedAtMs: null },
    awaitingApprovalAtEnd: ZERO,
    scheduledAtEnd: ZERO,
  };
}

// Postgres answers COUNT and SUM of bigints as text, SQLite as numbers; a sum of no rows is null.
function tally(count: unknown, cents: unknown): CloseTally {
  return { count: Number(count ?? 0), cents: BigInt(String(cents ?? 0)) };
}

function earliest(a: number | null, b: number): number {
  return a === null || b < a ? b : a;
}
