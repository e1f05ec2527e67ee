import { MovementEntity } from './entities';
import { checkDate, checkNetworkId, checkOriginId } from './store-arguments';
import type { StoreContext } from './store-context';

/** What a query the store's lease holder did not make teaches about a movement. */
export interface UnleasedQuery {
  /** No query, by a sweep or on demand, before then (kept if one already held later). */
  heldUntil: Date;
  /** The DEBIN id the query named the movement by (kept if one is already known). */
  debinId?: string;
}

/**
 * A bank query about a movement that was made without its lease: a lookup by a network or DEBIN id whose answer
 * named a movement giro stores, while another worker held that movement. Its answer cannot be applied (only
 * the lease's owner writes what the bank said), but the bank counted the query, so the polling rule must count
 * it too: it is recorded without a fence, by moves that commute with the owner's fenced write — a later
 * `queriesHeldUntil` (which sweeps and refreshes honour, and the owner's write does not touch), one more query,
 * and a DEBIN id where none was known.
 */
export class MovementQueryHolds {
  constructor(private readonly context: StoreContext) {}

  /** False when the movement is not stored. */
  async recordUnleasedQuery(originId: number, query: UnleasedQuery): Promise<boolean> {
    checkOriginId(originId);
    const heldUntilMs = checkDate(query.heldUntil, 'heldUntil');
    const debinId = query.debinId === undefined ? null : checkNetworkId(query.debinId, 'debinId');
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(MovementEntity)
        .set({
          queriesHeldUntilMs: () =>
            'CASE WHEN "queries_held_until_ms" IS NULL OR "queries_held_until_ms" < :heldUntilMs THEN CAST(:heldUntilMs AS bigint) ELSE "queries_held_until_ms" END',
          debinId: () => 'COALESCE("debin_id", :debinId)',
          queries: () => '"queries" + 1',
          version: () => '"version" + 1',
          updatedAtMs: now,
        })
        .where('"origin_id" = :originId', { originId })
        .setParameters({ heldUntilMs, debinId })
        .execute();
      return result.affected === 1;
    });
  }
}
