import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { amountToCents, isDecimalAmount } from '../domain';
import { engineOf } from './engine/database-engine';
import { MovementEntity } from './entities';
import { escapeLike } from './like-pattern';
import { StoreArgumentError } from './persistence.errors';
import type { TrigramEstimates } from './postgres-text-pattern';
import { wordPageKeys, wordsContaining } from './postgres-word-page';
import type { CommonTexts } from './sqlite-common-texts';
import { checkDate, checkInteger, checkNetworkId, checkOriginId, checkStatus, MAX_BATCH_SIZE } from './store-arguments';
import { type ListMovementsOptions, MOVEMENT_SORTS, type MovementPage, type MovementSort } from './store-types';

// A page of a search of movements. Keyset paging: the cursor is the last row's sort key, so a page costs the
// same however deep it is, and a movement created meanwhile neither shifts nor repeats the rows of the next
// page. Each filter has an index that leads with its value and goes on in the order of the sort by creation
// time (MovementSearch1796673600000).

const ORIGIN_ID_CURSOR = /^[1-9][0-9]{0,15}$/;
const CREATED_AT_CURSOR = /^([0-9]{1,16})_([1-9][0-9]{0,15})$/;
const ADDRESS = /^[0-9]{22}$/;
const PERSON_ID = /^[0-9]{11}$/;
const MAX_TEXT_LENGTH = 100;

type Cursor = { originId: number } | { createdAtMs: number; originId: number };

/**
 * Postgres settings for a search's read transaction only (`set_config(…, true)`: as `SET LOCAL`). A page of a
 * search reads a few thousand index entries or rows at most, which Postgres can misprice in two ways:
 * - JIT: a filter it cannot estimate (the text's LIKE) is priced as a scan of much of the table, and past
 *   jit_above_cost the plan is compiled first: 0.5 s of JIT for a 2 ms search (EXPLAIN ANALYZE, 10 M movements).
 * - Parallel workers: started for a range of 35 000 amount-index entries, they made 85 ms of what one process
 *   reads in 27 ms (two cores), each worker's start and the merge of their sorts costing more than they share.
 */
const SEARCH_SETTINGS =
  "SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)";

/** What a store's searches learn and keep between them: only their plans depend on it, never what they find. */
export interface SearchMemory {
  trigramEstimates: TrigramEstimates;
  commonTexts: CommonTexts;
}

/** Checks a search's options now (before any transaction) and builds its query and its page. */
export function movementSearchQuery(options: ListMovementsOptions, memory: SearchMemory) {
  const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
  const sort = checkSort(options.sort);
  const after = options.after === undefined ? undefined : parseCursor(options.after, sort);
  const filter = checkedFilter(options);
  const personId =
    options.personId === undefined ? undefined : matching(options.personId, PERSON_ID, 'personId', '11 digits');
  return {
    async rows(manager: EntityManager): Promise<MovementEntity[]> {
      if (engineOf(manager.connection) === 'postgres') await manager.query(SEARCH_SETTINGS);
      const amount = await amountReading(manager, filter.amountRange, filter.status, filter.text !== undefined);
      const textIndexPattern =
        filter.text !== undefined && engineOf(manager.connection) === 'postgres'
          ? await memory.trigramEstimates.patternFor(manager, filter.text)
          : undefined;
      const byIndex: ByIndex = {
        amountByIndex: amount.byIndex,
        textCandidates: await textCandidates(manager, filter.textPhrase, memory.commonTexts),
        textIndexPattern,
        textWords:
          filter.text !== undefined && filter.textAlone && personId === undefined && textIndexPattern !== undefined
            ? await wordsContaining(manager, filter.text, textIndexPattern)
            : undefined,
      };
      const query = manager.createQueryBuilder(MovementEntity, 'm').limit(limit + 1);
      filter.apply(query, byIndex);
      ordered(query, sort, after);
      const page = (keys: SelectQueryBuilder<MovementEntity>) => {
        filter.apply(keys, byIndex);
        ordered(keys, sort, after);
        keys.limit(limit + 1);
      };
      if (byIndex.textWords !== undefined) {
        const keys = wordPageKeys(byIndex.textWords, sort, after, limit + 1);
        query.andWhere(`m.originId IN (${keys.sql})`, keys.parameters);
      } else if (personId !== undefined) eitherParty(manager, query, personId, page);
      else if (filter.amountRange !== undefined) {
        // A rare text's candidates are looked up by originId instead.
        keysFirst(manager, query, page, byIndex.textCandidates === undefined ? amount.countedAlong : undefined);
      } else if (byIndex.textIndexPattern !== undefined) {
        // The trigram index's candidates are sorted as keys, not as whole rows: about 2 of 10 ms at 10 M movements
        // for the 2 045 that hold a rare word, each row copied into the sort with its intent and the bank's answer.
        keysFirst(manager, query, page, undefined);
      }
      return query.getMany();
    },
    page<T>(rows: MovementEntity[], map: (row: MovementEntity) => T): MovementPage<T> {
      const kept = rows.slice(0, limit);
      const last = kept[kept.length - 1];
      const nextCursor = rows.length > limit ? cursorOf(last, sort) : null;
      return { items: kept.map(map), nextCursor };
    },
  };
}

/** The filters as `WHERE` conditions (all of them must hold), checked before anything is read. */
function checkedFilter(options: ListMovementsOptions): {
  apply: (query: SelectQueryBuilder<MovementEntity>, options?: ByIndex) => void;
  amountRange: { min: number; max: number } | undefined;
  status: string | undefined;
  text: string | undefined;
  /** Whether the text (if any) is the only filter. */
  textAlone: boolean;
  textPhrase: string | undefined;
} {
  const conditions: [string, Record<string, unknown>][] = [];
  const where = (condition: string, parameters: Record<string, unknown> = {}) =>
    conditions.push([condition, parameters]);
  const status = options.status === undefined ? undefined : checkStatus(options.status, 'status');
  if (status !== undefined) where('m.status = :status', { status });
  if (options.networkId !== undefined)
    where('m.networkId = :networkId', { networkId: checkNetworkId(options.networkId) });
  if (options.debinId !== undefined)
    where('m.debinId = :debinId', { debinId: checkNetworkId(options.debinId, 'debinId') });
  if (options.originId !== undefined) where('m.originId = :originId', { originId: checkOriginId(options.originId) });
  if (options.createdFrom !== undefined) {
    where('m.createdAtMs >= :createdFrom', { createdFrom: checkDate(options.createdFrom, 'createdFrom') });
  }
  if (options.createdBefore !== undefined) {
    where('m.createdAtMs < :createdBefore', { createdBefore: checkDate(options.createdBefore, 'createdBefore') });
  }
  const amountMin = options.amountMin === undefined ? undefined : cents(options.amountMin, 'amountMin');
  const amountMax = options.amountMax === undefined ? undefined : cents(options.amountMax, 'amountMax');
  if (amountMin !== undefined && amountMin === amountMax) {
    // One amount: an equality, which reads the (amount_cents, created_at_ms, origin_id) index in the page's
    // order; as a range of one value SQLite would read all of them and sort them.
    where('m.amountCents = :amount', { amount: amountMin });
  } else {
    if (amountMin !== undefined) where('m.amountCents >= :amountMin', { amountMin });
    if (amountMax !== undefined) where('m.amountCents <= :amountMax', { amountMax });
  }
  const amountRange =
    (amountMin !== undefined || amountMax !== undefined) && amountMin !== amountMax
      ? { min: amountMin ?? 0, max: amountMax ?? Number.MAX_SAFE_INTEGER }
      : undefined;
  if (options.fromAddress !== undefined) {
    where('m.fromAddress = :fromAddress', {
      fromAddress: matching(options.fromAddress, ADDRESS, 'fromAddress', '22 digits'),
    });
  }
  if (options.toAddress !== undefined) {
    where('m.toAddress = :toAddress', { toAddress: matching(options.toAddress, ADDRESS, 'toAddress', '22 digits') });
  }
  const textPattern = options.text === undefined ? undefined : containing(options.text);
  const text = textPattern === undefined ? undefined : (options.text as string).toLowerCase();
  const textPhrase = options.text === undefined ? undefined : trigramPhrase(options.text as string);
  return {
    amountRange,
    status,
    text,
    textAlone: conditions.length === 0,
    textPhrase,
    apply(query, { amountByIndex, textCandidates, textIndexPattern, textWords } = { amountByIndex: true }) {
      for (const [condition, parameters] of conditions) {
        // `x + 0`: the same value, but SQLite no longer reads the term as a range of x's index.
        query.andWhere(
          amountByIndex ? condition : condition.replace(/^m\.amountCents ([<>]=)/, '(m.amountCents + 0) $1'),
          parameters,
        );
      }
      if (textWords !== undefined) {
        // The page's keys come from the words that contain the text (rows()); checked again on the page's rows.
        query.andWhere('STRPOS(LOWER(m.description), :text) > 0', { text });
      } else if (textIndexPattern !== undefined) {
        // The text's uncommon stretches for the trigram index, then the whole text on each candidate: `strpos`,
        // which the index does not serve, so the planner does not read the text's common trigrams after all.
        query.andWhere("LOWER(m.description) LIKE :textIndexPattern ESCAPE '\\'", { textIndexPattern });
        query.andWhere('STRPOS(LOWER(m.description), :text) > 0', { text });
      } else if (textPattern !== undefined) {
        query.andWhere("LOWER(m.description) LIKE :text ESCAPE '\\'", { text: textPattern });
      }
      // The candidates of the text index, as one JSON array; the LIKE above still decides, as on the other path.
      if (textCandidates !== undefined) {
        query.andWhere('m.originId IN (SELECT "value" FROM json_each(:textCandidates))', {
          textCandidates: JSON.stringify(textCandidates),
        });
      }
    },
  };
}

interface ByIndex {
  amountByIndex: boolean;
  /** The originIds whose description may hold a rare text (SQLite's text index), or undefined. */
  textCandidates?: number[] | undefined;
  /** The part of the text Postgres's trigram index is given (postgres-text-pattern.ts), or undefined: the whole text. */
  textIndexPattern?: string | undefined;
  /** The words that contain a text searched alone on Postgres, whose movements give the page (postgres-word-page.ts). */
  textWords?: string[] | undefined;
}

/**
 * A range of amounts on SQLite, which plans without statistics (giro never runs ANALYZE): it always reads such a
 * range along the amount index and sorts all it finds, every movement of a wide range. Counted first along that
 * index, at most AMOUNT_PROBE entries: a range with fewer is read that way (a sort of at most that many rows); a
 * wider one is left to the creation-time order (or another filter's index), where one movement in
 * AMOUNT_PROBE ÷ the table's rows or more matches, and a page is found within a few thousand rows. With a status,
 * the pair is counted along the (status, amount_cents, …) index, which then answers it from its keys when it is
 * narrow; a wide pair is read along the status's index in the page's order. Postgres weighs the same choices with
 * its statistics.
 */
const AMOUNT_PROBE = 5_000;
/**
 * With a text, up to this many: the amount's index ends with the description (MovementAmountText1796932800000), so
 * a range is checked against the text from the index alone, about 0.3 µs an entry, where the creation-time order
 * reads whole rows (about 1 µs each) until a page's worth of both — 51 ÷ (the range's share × the text's) rows.
 * For a common word (a fifth of the movements at 1 M) the two cost the same near 35 000.
 */
const TEXT_AMOUNT_PROBE = 25_000;

/** Whether a range of amounts is read along its index; on SQLite, when it is, the index it was counted along. */
interface AmountReading {
  byIndex: boolean;
  countedAlong?: string;
}

async function amountReading(
  manager: EntityManager,
  range: { min: number; max: number } | undefined,
  status: string | undefined,
  withText: boolean,
): Promise<AmountReading> {
  if (range === undefined || engineOf(manager.connection) !== 'sqlite') return { byIndex: true };
  const index = status === undefined ? 'IDX_giro_movements_amount' : 'IDX_giro_movements_status_amount';
  // A status and an amount are counted along their own index, which holds no description.
  const probe = withText && status === undefined ? TEXT_AMOUNT_PROBE : AMOUNT_PROBE;
  const byStatus =
    status === undefined ? { condition: '', values: [] } : { condition: '"status" = ? AND ', values: [status] };
  const [row]: { found: number }[] = await manager.query(
    `SELECT COUNT(*) AS "found" FROM (SELECT 1 FROM "giro_movements" WHERE ${byStatus.condition}"amount_cents" >= ? AND "amount_cents" <= ? LIMIT ?)`,
    [...byStatus.values, range.min, range.max, probe],
  );
  return Number(row.found) < probe ? { byIndex: true, countedAlong: index } : { byIndex: false };
}

/**
 * Text in the description on SQLite: its FTS5 trigram index (MovementText1796760000000) holds every movement
 * whose description contains the text, in no useful order. Asked once, for at most TEXT_PROBE of them: a rare
 * text's candidates are then looked up by originId and sorted (passed as one JSON array: the index is not read
 * twice); a common one, found in TEXT_PROBE movements or more, is read along the page's order, where a page's worth
 * of matches comes within a few thousand rows — as is a text of fewer than three characters, which has no
 * trigram. A common text is remembered (CommonTexts): it is not asked again. Postgres's trigram index:
 * postgres-text-pattern.ts.
 */
const TEXT_PROBE = 5_000;

async function textCandidates(
  manager: EntityManager,
  phrase: string | undefined,
  commonTexts: CommonTexts,
): Promise<number[] | undefined> {
  // FTS5's trigram tokenizer folds case: so does the memory's key.
  if (phrase === undefined || engineOf(manager.connection) !== 'sqlite' || commonTexts.has(phrase.toLowerCase())) {
    return undefined;
  }
  const rows: { id: number }[] = await manager.query(
    `SELECT "rowid" AS "id" FROM "giro_movement_text" WHERE "giro_movement_text" MATCH ? LIMIT ${TEXT_PROBE}`,
    [phrase],
  );
  if (rows.length < TEXT_PROBE) return rows.map((row) => Number(row.id));
  commonTexts.add(phrase.toLowerCase());
  return undefined;
}

/** The text as one FTS5 phrase (its quotes doubled, as FTS5 quotes them), or none under three characters. */
function trigramPhrase(text: string): string | undefined {
  return [...text].length < 3 ? undefined : `"${text.replaceAll('"', '""')}"`;
}

/**
 * Either party's CUIT: the movements among the first page's worth of each party's index, in the page's order.
 * An `OR` of the two columns is read by both engines as two index lookups merged and then sorted — every movement
 * of that CUIT (about a fifth of all for one of the sender's own) — where each branch here reads at most a page
 * from its `(…_person_id, created_at_ms, origin_id)` index in order, with the search's other filters and the cursor
 * (`page`), and the outer query keeps the page's worth of the two by primary key. A movement whose two parties
 * have that CUIT comes from both branches: `IN` takes it once.
 */
function eitherParty(
  manager: EntityManager,
  query: SelectQueryBuilder<MovementEntity>,
  personId: string,
  page: (branch: SelectQueryBuilder<MovementEntity>) => void,
): void {
  const branch = (column: 'fromPersonId' | 'toPersonId') => {
    const sub = manager
      .createQueryBuilder(MovementEntity, 'm')
      .select('m.originId', 'origin_id')
      .where(`m.${column} = :personId`, { personId });
    page(sub);
    query.setParameters(sub.getParameters());
    // A branch with its own ORDER BY and LIMIT: a derived table on both engines.
    return `SELECT "origin_id" FROM (${sub.getQuery()}) AS "${column}"`;
  };
  query.andWhere(`m.originId IN (${branch('fromPersonId')} UNION ALL ${branch('toPersonId')})`);
}

/**
 * A range of amounts: the page's keys first, from the (amount_cents, created_at_ms, origin_id, description) index
 * alone when the range is read along it, then the page's rows by primary key. Postgres misjudges how many movements
 * a range in the tail of the amounts holds (1 005 estimated, 39 884 found, at 10 M movements): read as rows, sorted,
 * that was 39 725 heap pages and 1.3 s; read as keys from the index it is a few hundred index pages. On SQLite the
 * keys are read `INDEXED BY` the index the range was counted along (`amountReading`): without statistics it prefers
 * the creation time's order for a range with one bound, and for a common word above a high amount read 41 000
 * rows to find a page (24 ms) where the counted index gives it in 1.8 ms.
 */
function keysFirst(
  manager: EntityManager,
  query: SelectQueryBuilder<MovementEntity>,
  page: (keys: SelectQueryBuilder<MovementEntity>) => void,
  indexedBy: string | undefined,
): void {
  const keys = manager.createQueryBuilder(MovementEntity, 'm').select('m.originId', 'origin_id');
  page(keys);
  query.setParameters(keys.getParameters());
  query.andWhere(`m.originId IN (SELECT "origin_id" FROM (${withIndex(keys.getQuery(), indexedBy)}) AS "page")`);
}

/** The query with SQLite's `INDEXED BY` after its table (a constant name of ours, not a value). */
function withIndex(sql: string, index: string | undefined): string {
  if (index === undefined) return sql;
  const table = 'FROM "giro_movements" "m"';
  if (!sql.includes(table)) throw new Error(`the search's keys query does not read ${table}: ${sql}`);
  return sql.replace(table, `${table} INDEXED BY "${index}"`);
}

function ordered(query: SelectQueryBuilder<MovementEntity>, sort: MovementSort, after: Cursor | undefined): void {
  if (sort === 'originId') {
    query.orderBy('m.originId', 'ASC');
    if (after) query.andWhere('m.originId > :afterOriginId', { afterOriginId: after.originId });
    return;
  }
  const direction = sort === 'createdAt' ? 'ASC' : 'DESC';
  query.orderBy('m.createdAtMs', direction).addOrderBy('m.originId', direction);
  if (after && 'createdAtMs' in after) {
    // A row value: both engines read it as one range of the (…, created_at_ms, origin_id) index.
    query.andWhere(
      `(m.createdAtMs, m.originId) ${direction === 'ASC' ? '>' : '<'} (:afterCreatedAtMs, :afterOriginId)`,
      {
        afterCreatedAtMs: after.createdAtMs,
        afterOriginId: after.originId,
      },
    );
  }
}

function cursorOf(row: MovementEntity, sort: MovementSort): string {
  return sort === 'originId' ? String(row.originId) : `${row.createdAtMs}_${row.originId}`;
}

function parseCursor(after: unknown, sort: MovementSort): Cursor {
  const invalid = () =>
    new StoreArgumentError('after', 'cursor', `must be the nextCursor of a previous page sorted by ${sort}`);
  if (typeof after !== 'string') throw invalid();
  if (sort === 'originId') {
    if (!ORIGIN_ID_CURSOR.test(after) || !Number.isSafeInteger(Number(after))) throw invalid();
    return { originId: Number(after) };
  }
  const match = CREATED_AT_CURSOR.exec(after);
  if (!match || !Number.isSafeInteger(Number(match[1])) || !Number.isSafeInteger(Number(match[2]))) throw invalid();
  return { createdAtMs: Number(match[1]), originId: Number(match[2]) };
}

function checkSort(sort: unknown): MovementSort {
  if (sort === undefined) return 'originId';
  if (!MOVEMENT_SORTS.includes(sort as MovementSort)) {
    throw new StoreArgumentError('sort', 'enum', `must be one of ${MOVEMENT_SORTS.join(', ')}`);
  }
  return sort as MovementSort;
}

function cents(amount: unknown, field: string): number {
  if (!isDecimalAmount(amount))
    throw new StoreArgumentError(field, 'amount', 'must be a canonical decimal string like "1234.50"');
  return Number(amountToCents(amount));
}

function matching(value: unknown, pattern: RegExp, field: string, rule: string): string {
  if (typeof value !== 'string' || !pattern.test(value))
    throw new StoreArgumentError(field, 'format', `must be ${rule}`);
  return value;
}

/** A LIKE pattern for text anywhere in the description: its wildcards and the escape character taken literally. */
function containing(text: unknown): string {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT_LENGTH) {
    throw new StoreArgumentError('text', 'length', `must be from 1 to ${MAX_TEXT_LENGTH} characters`);
  }
  return `%${escapeLike(text.toLowerCase())}%`;
}
