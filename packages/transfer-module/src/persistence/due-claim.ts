import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { FINAL_STATUSES, PENDING_STATUS } from '../domain';
import type { DatabaseEngine } from './database-engine';
import { MovementEntity } from './entities';

const NOT_PENDING = [PENDING_STATUS, ...FINAL_STATUSES];

/**
 * The two steps of a claim, each ordered by an index so that it reads about as many rows as it takes (one
 * query ordering by "PENDING first, then nextQueryAt" would scan and sort every due movement per batch):
 *  1. due PENDING movements, on the (status, next_query_at_ms) index;
 *  2. the other due ones that are not final, on the next_query_at_ms index (final ones have it null).
 * Both skip movements under an unexpired lease; on Postgres they lock what they return (SKIP LOCKED: a
 * concurrent claimer takes other rows). `limit` is the room left after the first step.
 */
export function dueClaimQueries(
  manager: EntityManager,
  engine: DatabaseEngine,
  nowMs: number,
): Record<'pending' | 'others', (limit: number) => SelectQueryBuilder<MovementEntity>> {
  const due = (limit: number) => {
    const query = manager
      .createQueryBuilder(MovementEntity, 'm')
      .where('m.nextQueryAtMs <= :now', { now: nowMs })
      .andWhere('(m.leaseExpiresAtMs IS NULL OR m.leaseExpiresAtMs <= :now)')
      .orderBy('m.nextQueryAtMs', 'ASC')
      .limit(limit);
    return engine === 'postgres' ? query.setLock('pessimistic_write').setOnLocked('skip_locked') : query;
  };
  return {
    pending: (limit) => due(limit).andWhere('m.status = :pending', { pending: PENDING_STATUS }),
    others: (limit) => due(limit).andWhere('m.status NOT IN (:...notPending)', { notPending: NOT_PENDING }),
  };
}

/** A claimed batch in the order the store promises: PENDING first, then by nextQueryAt, then by originId. */
export function inClaimOrder(rows: MovementEntity[]): MovementEntity[] {
  const rank = (row: MovementEntity) => (row.status === PENDING_STATUS ? 0 : 1);
  return [...rows].sort(
    (a, b) => rank(a) - rank(b) || (a.nextQueryAtMs ?? 0) - (b.nextQueryAtMs ?? 0) || a.originId - b.originId,
  );
}
