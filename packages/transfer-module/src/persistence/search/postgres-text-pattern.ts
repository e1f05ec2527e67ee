import type { EntityManager } from 'typeorm';
import { escapeLike } from './like-pattern';

/**
 * Text in the description on Postgres: which part of the text its trigram index (GIN, `pg_trgm`, over
 * `LOWER(description)`) is given, as one `LIKE` pattern; `STRPOS` then checks the whole text on each candidate.
 *
 * Read as a bitmap, the index reads the whole posting list of each trigram it is given, and a trigram shared by
 * much of the table has a long one: "embargo" holds `emb`, as every "septiembre", "noviembre" and "diciembre" does,
 * and an invoice number (`A-0001-03000316`) holds `000` and `001`, as every invoice does, where its other trigrams
 * alone read a few index pages. So each trigram of the text's words (runs of letters or digits: pg_trgm splits a
 * text there) is weighed by the planner's own estimate, asked for each search in one `EXPLAIN` (nothing is kept
 * between searches), and the index is given the stretches of the text made of uncommon ones (under
 * COMMON_TRIGRAM_SHARE of the table): "embargo" becomes `%mbargo%`. The estimates only tell the common from the rest
 * (a trigram absent from the statistics' sample gets the planner's floor, however frequent), so every uncommon one
 * is kept: together they narrow the candidates.
 *
 * One pattern rather than a `LIKE` a trigram: each candidate the index gives is checked again against every
 * condition it served (pg_trgm's matches are approximate), and each check lowercases the description anew.
 */
const COMMON_TRIGRAM_SHARE = 0.01;
/** The trigrams weighed for one text, in the order they come: a long text's first ones are enough to narrow it. */
const MAX_WEIGHED_TRIGRAMS = 16;
const WORD = /[\p{L}\p{N}]{3,}/gu;

/** A trigram of the text: its letters and where it starts, in characters (code points) of the lowercased text. */
export interface TextTrigram {
  trigram: string;
  at: number;
}

/** The trigrams of a text's words (lowercased), in the order they come, a repeated one each time. */
export function trigramsOf(text: string): TextTrigram[] {
  const lowered = text.toLowerCase();
  const trigrams: TextTrigram[] = [];
  for (const word of lowered.matchAll(WORD)) {
    const start = [...lowered.slice(0, word.index)].length;
    const letters = [...word[0]];
    for (let at = 0; at + 3 <= letters.length; at++) {
      trigrams.push({ trigram: letters.slice(at, at + 3).join(''), at: start + at });
    }
  }
  return trigrams;
}

/**
 * The `LIKE` pattern for the index: the stretches of the lowercased text whose trigrams are all uncommon, in the
 * order they come, joined by `%`; undefined when every trigram is common (the text is then left to the planner as
 * it is). A stretch that would overlap the one before it starts after it instead (`%ab%cd%` asks for the two
 * apart), and is left out when under three characters remain.
 */
export function uncommonPattern(
  text: string,
  trigrams: TextTrigram[],
  isCommon: (trigram: string) => boolean,
): string | undefined {
  const letters = [...text.toLowerCase()];
  const stretches: { from: number; to: number }[] = [];
  for (const { trigram, at } of trigrams) {
    if (isCommon(trigram)) continue;
    const last = stretches[stretches.length - 1];
    if (last !== undefined && at <= last.to - 2) last.to = at + 3;
    else stretches.push({ from: at, to: at + 3 });
  }
  const kept: string[] = [];
  let end = 0;
  for (const { from, to } of stretches) {
    const start = Math.max(from, end);
    if (to - start < 3) continue;
    kept.push(letters.slice(start, to).join(''));
    end = to;
  }
  return kept.length === 0 ? undefined : `%${kept.map(escapeLike).join('%')}%`;
}

/** The pattern the index is given for a text (see uncommonPattern), or undefined: the text as it is. */
export async function uncommonTextPattern(manager: EntityManager, text: string): Promise<string | undefined> {
  const trigrams = trigramsOf(text).slice(0, MAX_WEIGHED_TRIGRAMS);
  if (trigrams.length === 0) return undefined;
  const distinct = [...new Set(trigrams.map(({ trigram }) => trigram))];
  const [movements, ...estimates] = await plannedRows(manager, [undefined, ...distinct]);
  const rows = new Map(distinct.map((trigram, index) => [trigram, estimates[index]]));
  return uncommonPattern(text, trigrams, (trigram) => (rows.get(trigram) ?? 0) >= COMMON_TRIGRAM_SHARE * movements);
}

interface PlanNode {
  'Plan Rows': number;
  Plans?: PlanNode[];
}

/**
 * The planner's estimate of the movements whose description holds each trigram (of all of them, for undefined), in
 * one round trip: the `EXPLAIN` of their counts' `UNION ALL` (the statistics of the index's expression, no row
 * read), whose Append node has one child a branch; a single branch is planned without an Append.
 */
async function plannedRows(manager: EntityManager, trigrams: (string | undefined)[]): Promise<number[]> {
  const parameters: string[] = [];
  const branches = trigrams.map((trigram) => {
    if (trigram === undefined) return 'SELECT 1 FROM "giro_movements"';
    parameters.push(`%${escapeLike(trigram)}%`);
    return `SELECT 1 FROM "giro_movements" WHERE LOWER("description") LIKE $${parameters.length} ESCAPE '\\'`;
  });
  const [row]: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] = await manager.query(
    `EXPLAIN (FORMAT JSON) ${branches.join(' UNION ALL ')}`,
    parameters,
  );
  const plan = row['QUERY PLAN'][0].Plan;
  return (plan.Plans ?? [plan]).map((branch) => branch['Plan Rows']);
}
