import type { EntityManager } from 'typeorm';
import { BUSINESS_UTC_OFFSET_MS, SCHEDULED_STATUS } from '../domain';
import type { EngineAdapter } from './engine/engine-adapter';

/** Which scheduled transfers are totalled: sent in `[executeFromMs, executeBeforeMs)`, from one source account. */
export interface ScheduledTotalsFilter {
  executeFromMs?: number;
  executeBeforeMs?: number;
  fromAddress?: string;
}

/** The scheduled transfers of one sending day (Buenos Aires) and source account, in one currency. */
export interface ScheduledDayTotal {
  day: string;
  fromAddress: string;
  currencyId: string;
  count: number;
  cents: bigint;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// One grouped query on the SCHEDULED rows' (from_address, execute_at_ms) index, whose condition the text names.
// The day is a whole number of days since the epoch on Buenos Aires' clock (a fixed offset, no daylight saving):
// integer division on both engines (the offset in the text: SQLite binds a number as a real), turned into a day key
// here.
const TOTALS = (filter: ScheduledTotalsFilter) => `SELECT m."from_address" AS "fromAddress",
    (m."execute_at_ms" + ${BUSINESS_UTC_OFFSET_MS}) / ${DAY_MS} AS "dayNumber", m."currency_id" AS "currencyId",
    COUNT(*) AS "count", SUM(m."amount_cents") AS "cents"
  FROM "giro_movements" m
  WHERE m."status" = '${SCHEDULED_STATUS}'${filter.fromAddress === undefined ? '' : ` AND m."from_address" = ?`}${
    filter.executeFromMs === undefined ? '' : ` AND m."execute_at_ms" >= ?`
  }${filter.executeBeforeMs === undefined ? '' : ` AND m."execute_at_ms" < ?`}
  GROUP BY "dayNumber", m."from_address", m."currency_id"
  ORDER BY "dayNumber", m."from_address", m."currency_id"
  LIMIT ?`;

/**
 * The SCHEDULED transfers that `filter` takes, counted and summed per sending day, source account and currency,
 * earliest day first, then by account: at most `limit` groups.
 */
export async function selectScheduledTotals(
  manager: EntityManager,
  engine: Pick<EngineAdapter, 'sql'>,
  filter: ScheduledTotalsFilter,
  limit: number,
): Promise<ScheduledDayTotal[]> {
  const parameters: unknown[] = [];
  if (filter.fromAddress !== undefined) parameters.push(filter.fromAddress);
  if (filter.executeFromMs !== undefined) parameters.push(filter.executeFromMs);
  if (filter.executeBeforeMs !== undefined) parameters.push(filter.executeBeforeMs);
  const rows: Record<string, string | number | null>[] = await manager.query(engine.sql(TOTALS(filter)), [
    ...parameters,
    limit,
  ]);
  return rows.map((row) => ({
    day: new Date(Number(row.dayNumber) * DAY_MS).toISOString().slice(0, 10),
    fromAddress: String(row.fromAddress),
    currencyId: String(row.currencyId),
    count: Number(row.count),
    cents: BigInt(row.cents ?? 0),
  }));
}
