import type { EntityManager } from 'typeorm';
import type { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';
import type { MovementSearchPort } from './movement-search-port';
import { pageRows, type TextCondition } from './search-query';

/**
 * Text in the description on SQLite: its FTS5 trigram index (the table `giro_movement_text`, which keeps no
 * positions: TextIndexWithoutPositions1797969600000) holds every movement whose description has each of the text's
 * trigrams — those containing the text among them — in no useful order. Asked once,
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
  const trigrams = everyTrigram(text);
  if (trigrams === undefined) return undefined;
  const rows: { id: number }[] = await manager.query(
    `SELECT "rowid" AS "id" FROM "giro_movement_text" WHERE "giro_movement_text" MATCH ? LIMIT ${TEXT_PROBE}`,
    [trigrams],
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

/**
 * An FTS5 query for the movements that hold each of the text's trigrams (each a string, its quotes doubled as FTS5
 * quotes them; side by side, FTS5 wants them all), or none under three characters. A phrase would need the
 * positions the index does not keep.
 */
function everyTrigram(text: string): string | undefined {
  const characters = [...text];
  if (characters.length < 3) return undefined;
  const trigrams = new Set<string>();
  for (let start = 0; start + 3 <= characters.length; start++)
    trigrams.add(characters.slice(start, start + 3).join(''));
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' ');
}
