import type { EntityManager } from 'typeorm';
import type { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';
import type { MovementSearchPort } from './movement-search-port';
import { pageRows, type TextCondition } from './search-query';

/**
 * Text in the description on SQLite: its FTS5 trigram index (MovementText1796760000000, the table
 * `giro_movement_text`) holds every movement whose description contains the text, in no useful order. Asked once,
 * for at most TEXT_PROBE of them: a rare text's candidates are then looked up by originId and sorted (passed as one
 * JSON array: the index is not read twice); a common one, found in TEXT_PROBE movements or more, is read along the
 * page's order, where a page's worth of matches comes within a few thousand rows — as is a text of fewer than three
 * characters, which has no trigram. The `LIKE` decides on either road.
 */
const TEXT_PROBE = 5_000;

/** The search on SQLite: each filter's B-tree, and the FTS5 trigram index for the text. */
export class SqliteMovementSearch implements MovementSearchPort {
  async rows(manager: EntityManager, search: CheckedSearch): Promise<MovementEntity[]> {
    const candidates = search.text === undefined ? undefined : await textCandidates(manager, search.text.given);
    return pageRows(manager, search, candidates === undefined ? undefined : amongCandidates(candidates, search));
  }
}

async function textCandidates(manager: EntityManager, text: string): Promise<number[] | undefined> {
  const phrase = trigramPhrase(text);
  if (phrase === undefined) return undefined;
  const rows: { id: number }[] = await manager.query(
    `SELECT "rowid" AS "id" FROM "giro_movement_text" WHERE "giro_movement_text" MATCH ? LIMIT ${TEXT_PROBE}`,
    [phrase],
  );
  return rows.length < TEXT_PROBE ? rows.map((row) => Number(row.id)) : undefined;
}

function amongCandidates(candidates: number[], search: CheckedSearch): TextCondition {
  return (query) => {
    query.andWhere("LOWER(m.description) LIKE :text ESCAPE '\\'", { text: search.text?.pattern });
    query.andWhere('m.originId IN (SELECT "value" FROM json_each(:textCandidates))', {
      textCandidates: JSON.stringify(candidates),
    });
  };
}

/** The text as one FTS5 phrase (its quotes doubled, as FTS5 quotes them), or none under three characters. */
function trigramPhrase(text: string): string | undefined {
  return [...text].length < 3 ? undefined : `"${text.replaceAll('"', '""')}"`;
}
