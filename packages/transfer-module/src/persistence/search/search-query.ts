import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { MOVEMENT_STATUSES } from '../../domain';
import { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';

// The SQL both engines share: the filters as conditions, the page's order and cursor, and the two shapes that
// keep a page's reads to a page's worth (either party's CUIT, the keys first). Each filter has a B-tree index
// that leads with its value and goes on in the order of the sort by creation time, `(…, created_at_ms,
// origin_id)`, so a filter alone is read in the page's order and stops after a page.

/** How the description's text is asked on one engine (its index's own condition, then the text itself). */
export type TextCondition = (query: SelectQueryBuilder<MovementEntity>) => void;

/** The search's filters (the text as `text`, or the plain LIKE), its order and its cursor, on `query`. */
export function filteredAndOrdered(
  query: SelectQueryBuilder<MovementEntity>,
  search: CheckedSearch,
  text: TextCondition | undefined,
): void {
  const where = (condition: string, parameters: Record<string, unknown> = {}) => query.andWhere(condition, parameters);
  if (search.status !== undefined) where('m.status = :status', { status: search.status });
  if (search.networkId !== undefined) where('m.networkId = :networkId', { networkId: search.networkId });
  if (search.debinId !== undefined) where('m.debinId = :debinId', { debinId: search.debinId });
  if (search.originId !== undefined) where('m.originId = :originId', { originId: search.originId });
  if (search.createdFromMs !== undefined) where('m.createdAtMs >= :createdFrom', { createdFrom: search.createdFromMs });
  if (search.createdBeforeMs !== undefined) {
    where('m.createdAtMs < :createdBefore', { createdBefore: search.createdBeforeMs });
  }
  if (search.executeFromMs !== undefined) where('m.executeAtMs >= :executeFrom', { executeFrom: search.executeFromMs });
  if (search.executeBeforeMs !== undefined) {
    where('m.executeAtMs < :executeBefore', { executeBefore: search.executeBeforeMs });
  }
  // The amount has no index of its own: it is read from the (status, amount_cents, …) index, without a status one
  // stretch of it per status, so that no index is written with every transfer for the amount alone. With a text the
  // amount is checked along the creation time's index instead, which carries both; with a party, on the rows that
  // party's index gives. One amount is an equality (a
  // range of one value would be read whole and sorted).
  if (amountOfEveryStatus(search)) where('m.status IN (:...everyStatus)', { everyStatus: [...MOVEMENT_STATUSES] });
  if (search.amountCents !== undefined) where('m.amountCents = :amount', { amount: search.amountCents });
  if (search.amountRange?.min !== undefined)
    where('m.amountCents >= :amountMin', { amountMin: search.amountRange.min });
  if (search.amountRange?.max !== undefined)
    where('m.amountCents <= :amountMax', { amountMax: search.amountRange.max });
  if (search.fromAddress !== undefined) where('m.fromAddress = :fromAddress', { fromAddress: search.fromAddress });
  if (search.toAddress !== undefined) where('m.toAddress = :toAddress', { toAddress: search.toAddress });
  if (search.text !== undefined) {
    if (text !== undefined) text(query);
    else where("LOWER(m.description) LIKE :text ESCAPE '\\'", { text: search.text.pattern });
  }
  ordered(query, search);
  query.limit(search.limit + 1);
}

function ordered(query: SelectQueryBuilder<MovementEntity>, { sort, after }: CheckedSearch): void {
  if (sort === 'originId') {
    query.orderBy('m.originId', 'ASC');
    if (after) query.andWhere('m.originId > :afterOriginId', { afterOriginId: after.originId });
    return;
  }
  if (sort === 'executeAt') {
    // Only the transfers that have a moment; with the status SCHEDULED, read along that status' moment index.
    query.andWhere('m.executeAtMs IS NOT NULL');
    query.orderBy('m.executeAtMs', 'ASC').addOrderBy('m.originId', 'ASC');
    if (after && 'executeAtMs' in after) {
      query.andWhere('(m.executeAtMs, m.originId) > (:afterExecuteAtMs, :afterOriginId)', {
        afterExecuteAtMs: after.executeAtMs,
        afterOriginId: after.originId,
      });
    }
    return;
  }
  const direction = sort === 'createdAt' ? 'ASC' : 'DESC';
  query.orderBy('m.createdAtMs', direction).addOrderBy('m.originId', direction);
  if (after && 'createdAtMs' in after) {
    // A row value: both engines read it as one range of the (…, created_at_ms, origin_id) index.
    query.andWhere(
      `(m.createdAtMs, m.originId) ${direction === 'ASC' ? '>' : '<'} (:afterCreatedAtMs, :afterOriginId)`,
      { afterCreatedAtMs: after.createdAtMs, afterOriginId: after.originId },
    );
  }
}

/** The page's rows: `shape` may narrow the query (by originId) before it is read. */
export async function pageRows(
  manager: EntityManager,
  search: CheckedSearch,
  text: TextCondition | undefined,
): Promise<MovementEntity[]> {
  const query = manager.createQueryBuilder(MovementEntity, 'm');
  filteredAndOrdered(query, search, text);
  const keys = () => {
    const sub = manager.createQueryBuilder(MovementEntity, 'm').select('m.originId', 'origin_id');
    filteredAndOrdered(sub, search, text);
    return sub;
  };
  if (search.personId !== undefined) eitherParty(manager, query, search, text, search.personId);
  else if (search.amountRange !== undefined || search.text !== undefined || amountOfEveryStatus(search)) {
    keysFirst(query, keys());
  }
  return query.getMany();
}

/**
 * An amount or a range of them without a status, a text or a filter of one party or one movement (each read from its
 * own index, the amount checked on its page's rows): read one status at a time, in no useful order.
 */
function amountOfEveryStatus(search: CheckedSearch): boolean {
  const amount = search.amountCents !== undefined || search.amountRange !== undefined;
  const ownIndex = [search.fromAddress, search.toAddress, search.personId, search.networkId, search.debinId];
  return (
    amount &&
    search.status === undefined &&
    search.text === undefined &&
    search.originId === undefined &&
    ownIndex.every((value) => value === undefined)
  );
}

/**
 * Either party's CUIT: the movements among the first page's worth of each party's index, in the page's order.
 * An `OR` of the two columns is read by both engines as two index lookups merged and then sorted — every movement
 * of that CUIT (about a fifth of all for one of the sender's own) — where each branch here reads at most a page
 * from its `(…_person_id, created_at_ms, origin_id)` index in order, with the search's other filters and the
 * cursor, and the outer query keeps the page's worth of the two by primary key. A movement whose two parties have
 * that CUIT comes from both branches: `IN` takes it once.
 */
function eitherParty(
  manager: EntityManager,
  query: SelectQueryBuilder<MovementEntity>,
  search: CheckedSearch,
  text: TextCondition | undefined,
  personId: string,
): void {
  const branch = (column: 'fromPersonId' | 'toPersonId') => {
    const sub = manager
      .createQueryBuilder(MovementEntity, 'm')
      .select('m.originId', 'origin_id')
      .where(`m.${column} = :personId`, { personId });
    filteredAndOrdered(sub, search, text);
    query.setParameters(sub.getParameters());
    // A branch with its own ORDER BY and LIMIT: a derived table on both engines.
    return `SELECT "origin_id" FROM (${sub.getQuery()}) AS "${column}"`;
  };
  query.andWhere(`m.originId IN (${branch('fromPersonId')} UNION ALL ${branch('toPersonId')})`);
}

/**
 * A range of amounts, one amount of every status, or a text: the page's keys first, then the page's rows by primary
 * key. Such a filter may be read through an index in no useful order (the `(status, amount_cents, …)` one status
 * after another, the text's): what is sorted then is keys, from the index alone where it holds them, not whole rows
 * with their intent and the bank's answer.
 */
function keysFirst(query: SelectQueryBuilder<MovementEntity>, keys: SelectQueryBuilder<MovementEntity>): void {
  query.setParameters(keys.getParameters());
  query.andWhere(`m.originId IN (SELECT "origin_id" FROM (${keys.getQuery()}) AS "page")`);
}
