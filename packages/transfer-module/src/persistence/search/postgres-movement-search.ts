import type { EntityManager } from 'typeorm';
import type { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';
import type { MovementSearchPort } from './movement-search-port';
import { pageRows } from './search-query';

/**
 * Postgres settings for a search's read transaction only (`set_config(…, true)`: as `SET LOCAL`). A page of a
 * search reads a few thousand index entries or rows at most, which Postgres can misprice in two ways:
 * - JIT: a filter it cannot estimate well (the text's LIKE) is priced as a scan of much of the table, and past
 *   jit_above_cost the plan is compiled first, which takes far longer than the search itself.
 * - Parallel workers: started for a range of the amount's index, each worker's start and the merge of their
 *   sorts cost more than they share.
 */
const SEARCH_SETTINGS =
  "SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)";

/**
 * The search on Postgres: the planner weighs each filter's B-tree with its statistics, and the text's `LIKE` on
 * `LOWER(description)` with the GIN trigram index over that expression (MovementText1796760000000), whose
 * statistics tell a common text (read along the page's order) from a rare one (read through the index). Where the
 * database's role could not create pg_trgm, the text is read along the page's order.
 */
export class PostgresMovementSearch implements MovementSearchPort {
  async rows(manager: EntityManager, search: CheckedSearch): Promise<MovementEntity[]> {
    await manager.query(SEARCH_SETTINGS);
    return pageRows(manager, search, undefined);
  }
}
