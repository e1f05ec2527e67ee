import { StoreArgumentError } from './persistence.errors';

// The anomaly list's one order over its two kinds: open ones first, then resolved ones; in each, newest first by
// the time the anomaly was raised, then a transfer's before an unknown debit at the same time, then by id. A page
// ends at a position (`nextCursor`); each kind's query reads only the rows after it.

/** The kinds of anomaly, each ranked for the order above (higher first at the same time). */
export const ANOMALY_RANKS = { transfer: 1, unknownDebit: 0 } as const;

type Rank = (typeof ANOMALY_RANKS)[keyof typeof ANOMALY_RANKS];

/** Where a page ended: the group (resolved or not), and the last item's time, kind and id. */
export interface AnomalyCursor {
  resolved: boolean;
  atMs: number;
  rank: Rank;
  id: number;
}

/** `<group>.<atMs>.<rank>.<id>`: group 0 unresolved, 1 resolved. */
const CURSOR = /^([01])\.([0-9]{1,16})\.([01])\.([1-9][0-9]{0,15})$/;

export function formatAnomalyCursor(cursor: AnomalyCursor): string {
  return `${cursor.resolved ? 1 : 0}.${cursor.atMs}.${cursor.rank}.${cursor.id}`;
}

export function parseAnomalyCursor(after: unknown): AnomalyCursor {
  const match = typeof after === 'string' ? CURSOR.exec(after) : null;
  if (!match || !Number.isSafeInteger(Number(match[2])) || !Number.isSafeInteger(Number(match[4]))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return { resolved: match[1] === '1', atMs: Number(match[2]), rank: Number(match[3]) as Rank, id: Number(match[4]) };
}

/**
 * The condition (fixed text, over `alias`'s `at_ms` and `id`) and its values keeping the rows of kind `rank` in
 * `resolved`'s group that come after `cursor`; none when the cursor is in the group before (or there is none).
 */
export function afterCursor(
  alias: string,
  rank: Rank,
  resolved: boolean,
  cursor: AnomalyCursor | undefined,
): { text: string; parameters: number[] } {
  if (cursor === undefined || cursor.resolved !== resolved) return { text: '', parameters: [] };
  if (rank < cursor.rank) return { text: ` AND ${alias}."at_ms" <= ?`, parameters: [cursor.atMs] };
  if (rank > cursor.rank) return { text: ` AND ${alias}."at_ms" < ?`, parameters: [cursor.atMs] };
  return {
    text: ` AND (${alias}."at_ms" < ? OR (${alias}."at_ms" = ? AND ${alias}."id" < ?))`,
    parameters: [cursor.atMs, cursor.atMs, cursor.id],
  };
}

/** Whether `a` comes before `b` in the order (same group). */
export function comesBefore(a: { atMs: number; rank: Rank; id: number }, b: { atMs: number; rank: Rank; id: number }) {
  if (a.atMs !== b.atMs) return a.atMs > b.atMs;
  if (a.rank !== b.rank) return a.rank > b.rank;
  return a.id > b.id;
}
