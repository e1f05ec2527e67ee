import type { EntityManager } from 'typeorm';
import type { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';
import type { MovementSearchPort } from './movement-search-port';
import { uncommonTextPattern } from './postgres-text-pattern';
import { pageRows, type TextCondition } from './search-query';

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
 * The search on Postgres: the planner weighs each filter's B-tree with its statistics, and the text with the GIN
 * trigram index over `LOWER(description)` (MovementText1796760000000), given only the text's uncommon stretches
 * (postgres-text-pattern.ts); a text whose trigrams are all common is left to the planner as it is, which reads it
 * along the page's order. Where the database's role could not create pg_trgm, the text is read that way too.
 */
export class PostgresMovementSearch implements MovementSearchPort {
  async rows(manager: EntityManager, search: CheckedSearch): Promise<MovementEntity[]> {
    await manager.query(SEARCH_SETTINGS);
    const pattern = search.text === undefined ? undefined : await uncommonTextPattern(manager, search.text.given);
    return pageRows(manager, search, pattern === undefined ? undefined : throughTrigrams(pattern, search));
  }
}

/** The uncommon stretches for the index, then the whole text on each candidate: `STRPOS`, which the index does not serve. */
function throughTrigrams(pattern: string, search: CheckedSearch): TextCondition {
  return (query) => {
    query.andWhere("LOWER(m.description) LIKE :textIndexPattern ESCAPE '\\'", { textIndexPattern: pattern });
    query.andWhere('STRPOS(LOWER(m.description), :textLowered) > 0', {
      textLowered: search.text?.given.toLowerCase(),
    });
  };
}
