import type { EntityManager } from 'typeorm';
import type { MovementSort } from './store-types';

/**
 * A text on Postgres that is one word or part of one (letters a–z and digits, three or more) and that few
 * movements hold, searched alone: its page's keys come from giro_movement_words (MovementWords1797019200000), where
 * each word's movements are kept in creation order. First the vocabulary's words that contain the text ("embargo":
 * embargo, embargos, desembargo), at most MAX_WORDS, then their movements in the page's order from that table's
 * primary key alone. The trigram index gives the same movements in no order, and sorting them read every one of
 * their rows (2 045 for "embargo" at 10 M movements, 8 ms); the page's keys now read that many index entries.
 *
 * Only letters a–z and digits: every locale counts them as the letters or digits that split a description into
 * words, so the text lies inside one word wherever a description holds it, and a word that contains it is a
 * description that holds it. A text with other characters, or searched with other filters, is read through the
 * trigram index as before.
 */
const ONE_WORD = /^[a-z0-9]{3,}$/;
const MAX_WORDS = 100;

/** The words that contain a lowercased text, or undefined when the text is not one word or is in too many. */
export async function wordsContaining(
  manager: EntityManager,
  text: string,
  indexPattern: string,
): Promise<string[] | undefined> {
  if (!ONE_WORD.test(text)) return undefined;
  // The pattern of the text's uncommon trigrams (postgres-text-pattern.ts) for the vocabulary's trigram index, and
  // the text itself checked on each word it gives.
  const rows: { word: string }[] = await manager.query(
    `SELECT "word" FROM "giro_words" WHERE "word" LIKE $1 ESCAPE '\\' AND STRPOS("word", $2) > 0 LIMIT ${MAX_WORDS + 1}`,
    [indexPattern, text],
  );
  return rows.length > MAX_WORDS ? undefined : rows.map((row) => row.word);
}

export type WordPageCursor = { originId: number } | { createdAtMs: number; originId: number };

/**
 * The page's originIds among the movements of these words, as a subquery with named parameters (`DISTINCT`: a
 * description may hold two of the words).
 */
export function wordPageKeys(
  words: string[],
  sort: MovementSort,
  after: WordPageCursor | undefined,
  size: number,
): { sql: string; parameters: Record<string, unknown> } {
  const parameters: Record<string, unknown> = { pageWords: words };
  const from = `FROM "giro_movement_words" "w" WHERE "w"."word" = ANY(:pageWords)`;
  if (sort === 'originId') {
    const cursor = after === undefined ? '' : ' AND "w"."origin_id" > :wordsAfterOriginId';
    if (after !== undefined) parameters.wordsAfterOriginId = after.originId;
    return {
      sql: `SELECT DISTINCT "w"."origin_id" ${from}${cursor} ORDER BY "w"."origin_id" ASC LIMIT ${size}`,
      parameters,
    };
  }
  const direction = sort === 'createdAt' ? 'ASC' : 'DESC';
  let cursor = '';
  if (after !== undefined && 'createdAtMs' in after) {
    cursor = ` AND ("w"."created_at_ms", "w"."origin_id") ${direction === 'ASC' ? '>' : '<'} (:wordsAfterCreatedAtMs, :wordsAfterOriginId)`;
    parameters.wordsAfterCreatedAtMs = after.createdAtMs;
    parameters.wordsAfterOriginId = after.originId;
  }
  const page = `SELECT DISTINCT "w"."created_at_ms", "w"."origin_id" ${from}${cursor} ORDER BY "w"."created_at_ms" ${direction}, "w"."origin_id" ${direction} LIMIT ${size}`;
  return { sql: `SELECT "origin_id" FROM (${page}) AS "word_page"`, parameters };
}
