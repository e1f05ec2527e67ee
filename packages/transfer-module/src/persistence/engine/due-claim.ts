import type { EntityManager } from 'typeorm';
import { AWAITING_APPROVAL_STATUS, FINAL_STATUSES, PENDING_STATUS, SCHEDULED_STATUS } from '../../domain';
import type { MovementEntity } from '../entities';
import type { EngineAdapter } from './engine-adapter';
import { movementFromRow } from './raw-rows';

export type ClaimStep = 'pending' | 'others';

const NOT_PENDING = [PENDING_STATUS, ...FINAL_STATUSES];

/** What a claim needs of the engine: its placeholders, its lease condition, its row locks. */
export type ClaimEngine = Pick<EngineAdapter, 'sql' | 'unleased' | 'unleasedParameters' | 'skipLocked'>;

// Fixed text with placeholders, prepared once per step. Due by one time, the lease judged at another (a sweep
// claims only what was due when it started, while leases keep expiring by the clock). Where replicas beat, a lease
// is also free when its owner has gone silent (EngineAdapter.unleased).
const DUE = (engine: ClaimEngine) =>
  `SELECT * FROM "giro_movements" m WHERE m."next_query_at_ms" <= ? AND ${engine.unleased('m')}`;

// The PENDING step names its status in the text, not as a parameter: a partial index (PENDING ones only) is
// used only when the query's own text implies the index's condition (SQLite never looks into a parameter,
// Postgres only when it plans for the values at hand).
const STEP_FILTER: Record<ClaimStep, string> = {
  pending: `m."status" = '${PENDING_STATUS}'`,
  others: `m."status" NOT IN (${NOT_PENDING.map(() => '?').join(', ')})`,
};
const STEP_STATUSES: Record<ClaimStep, readonly string[]> = { pending: [], others: NOT_PENDING };

/** When a claim is judged: movements due by `dueByMs`, leases expired by `nowMs`. */
export interface ClaimTimes {
  dueByMs: number;
  nowMs: number;
  /** The claiming lease owner (on Postgres it may take over silent replicas' leases once it beats itself). */
  claimer?: string;
}

/**
 * One step of a claim, ordered by an index so that it reads about as many rows as it takes (one query
 * ordering by "PENDING first, then nextQueryAt" would scan and sort every due movement per batch):
 *  - `pending`: due PENDING movements, on the partial next_query_at_ms index of PENDING ones;
 *  - `others`: the other due ones that are not final, on the next_query_at_ms index (final ones have it null).
 * Both skip movements under an unexpired lease; on Postgres they lock what they return (EngineAdapter.skipLocked:
 * a concurrent claimer takes other rows).
 */
export function dueClaimStatement(
  engine: ClaimEngine,
  step: ClaimStep,
  times: ClaimTimes,
  limit: number,
  excluding: readonly number[] = [],
): { sql: string; parameters: unknown[] } {
  const exclusion = excluding.length === 0 ? '' : ` AND m."origin_id" NOT IN (${excluding.map(() => '?').join(', ')})`;
  return {
    sql: engine.sql(
      `${DUE(engine)} AND ${STEP_FILTER[step]}${exclusion} ORDER BY m."next_query_at_ms" LIMIT ?${engine.skipLocked('m')}`,
    ),
    parameters: [
      times.dueByMs,
      ...engine.unleasedParameters(times.nowMs, times.claimer),
      ...STEP_STATUSES[step],
      ...excluding,
      limit,
    ],
  };
}

/** The due movements of one step, at most `limit`, none of `excluding` (originIds the claim already took). */
export async function selectDue(
  manager: EntityManager,
  engine: ClaimEngine,
  step: ClaimStep,
  times: ClaimTimes,
  limit: number,
  excluding: readonly number[] = [],
): Promise<MovementEntity[]> {
  const { sql, parameters } = dueClaimStatement(engine, step, times, limit, excluding);
  const rows: Record<string, unknown>[] = await manager.query(sql, parameters);
  return rows.map(movementFromRow);
}

// SCHEDULED rows hold no lease and no next_query_at_ms: due by their moment, on the partial index of their moments,
// read in its order and no other. A tie-breaker the index does not hold (origin_id, on Postgres) made every claim sort
// all the rows due at one moment — a payroll's whole backlog — to take a batch of them; the claim puts the rows it
// takes in order itself (inRounds: by moment, then originId).
const SCHEDULED_DUE = (excluding: number) => `SELECT * FROM "giro_movements" m WHERE m."status" = '${SCHEDULED_STATUS}'
  AND m."execute_at_ms" <= ?${excluding === 0 ? '' : ` AND m."origin_id" NOT IN (${Array(excluding).fill('?').join(', ')})`}
  ORDER BY m."execute_at_ms" LIMIT ?`;

/** The statement of selectScheduledDue. */
export function scheduledDueStatement(
  engine: ClaimEngine,
  dueByMs: number,
  limit: number,
  excluding: readonly number[] = [],
): { sql: string; parameters: unknown[] } {
  return {
    sql: engine.sql(`${SCHEDULED_DUE(excluding.length)}${engine.skipLocked('m')}`),
    parameters: [dueByMs, ...excluding, limit],
  };
}

/**
 * The scheduled transfers whose moment is at or before `dueByMs`, earliest first, at most `limit`, none of
 * `excluding`; on Postgres locked as they are read, skipping what another transaction holds.
 */
export async function selectScheduledDue(
  manager: EntityManager,
  engine: ClaimEngine,
  dueByMs: number,
  limit: number,
  excluding: readonly number[] = [],
): Promise<MovementEntity[]> {
  const { sql, parameters } = scheduledDueStatement(engine, dueByMs, limit, excluding);
  const rows: Record<string, unknown>[] = await manager.query(sql, parameters);
  return rows.map(movementFromRow);
}

/**
 * A claimed batch in the order the store promises: the creations (PENDING, and SCHEDULED ones whose moment came)
 * first, in the order their claim chose (each source account its share in turn, fair-share.ts), then the others by
 * nextQueryAt, then by originId.
 */
export function inClaimOrder(creations: MovementEntity[], others: MovementEntity[]): MovementEntity[] {
  const byTime = [...others].sort((a, b) => (a.nextQueryAtMs ?? 0) - (b.nextQueryAtMs ?? 0) || a.originId - b.originId);
  return [...creations, ...byTime];
}

// Final movements have next_query_at_ms null; the status filter keeps that a rule of this query too.
const NEXT_DUE = (engine: ClaimEngine) => `SELECT m."next_query_at_ms" AS "next_query_at_ms" FROM "giro_movements" m
  WHERE m."next_query_at_ms" IS NOT NULL AND m."status" NOT IN (${FINAL_STATUSES.map(() => '?').join(', ')})
  AND ${engine.unleased('m')} ORDER BY m."next_query_at_ms" LIMIT 1`;

/**
 * The earliest nextQueryAt among movements a claim at `nowMs` could take when due: not final, no unexpired
 * lease (or one a silent replica held). Walks the next_query_at_ms index from its start and stops at the first such row.
 */
export function nextDueStatement(engine: ClaimEngine, nowMs: number): { sql: string; parameters: unknown[] } {
  return {
    sql: engine.sql(NEXT_DUE(engine)),
    parameters: [...FINAL_STATUSES, ...engine.unleasedParameters(nowMs, undefined)],
  };
}

/** nextDueStatement's answer in milliseconds; null when nothing is waiting. */
export async function selectNextDueMs(
  manager: EntityManager,
  engine: ClaimEngine,
  nowMs: number,
): Promise<number | null> {
  const { sql, parameters } = nextDueStatement(engine, nowMs);
  const rows: { next_query_at_ms: string | number }[] = await manager.query(sql, parameters);
  // Postgres returns bigint as a string.
  return rows.length === 0 ? null : Number(rows[0].next_query_at_ms);
}

/** What a sweep's wake-up waits for, in milliseconds (null: nothing of that kind waits). */
export interface WakeUpTimes {
  /** The earliest nextQueryAt a claim could take once due (nextDueStatement's). */
  dueMs: number | null;
  /** The earliest expiry of a transfer awaiting approval. */
  approvalExpiryMs: number | null;
  /** The earliest moment of a scheduled transfer. */
  releaseMs: number | null;
}

/**
 * The three times a sweep's next wake-up is the earliest of, in one statement: each its own scalar subquery on
 * its own index (next_query_at_ms; the partial ones of AWAITING_APPROVAL and SCHEDULED rows). Without
 * `creations`, the due time leaves PENDING movements out (outside the bank's hours they wait for the opening).
 */
export function wakeUpStatement(
  engine: ClaimEngine,
  nowMs: number,
  creations: boolean,
): { sql: string; parameters: unknown[] } {
  const next = nextDueStatement(engine, nowMs);
  const due = creations
    ? NEXT_DUE(engine)
    : NEXT_DUE(engine).replace(' ORDER BY', ` AND m."status" <> '${PENDING_STATUS}' ORDER BY`);
  return {
    sql: engine.sql(`SELECT (${due}) AS "due",
      (SELECT MIN(a."approval_expires_at_ms") FROM "giro_movements" a
        WHERE a."status" = '${AWAITING_APPROVAL_STATUS}') AS "approval_expiry",
      (SELECT MIN(s."execute_at_ms") FROM "giro_movements" s WHERE s."status" = '${SCHEDULED_STATUS}') AS "release"`),
    parameters: next.parameters,
  };
}

export async function selectWakeUpTimes(
  manager: EntityManager,
  engine: ClaimEngine,
  nowMs: number,
  creations: boolean,
): Promise<WakeUpTimes> {
  const { sql, parameters } = wakeUpStatement(engine, nowMs, creations);
  const [row]: Record<string, string | number | null>[] = await manager.query(sql, parameters);
  // Postgres returns bigint as a string.
  const ms = (value: string | number | null | undefined) =>
    value === null || value === undefined ? null : Number(value);
  return { dueMs: ms(row?.due), approvalExpiryMs: ms(row?.approval_expiry), releaseMs: ms(row?.release) };
}
