const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)?$/;

/**
 * A duration as written in a variable: a whole number with a unit — `500ms`, `5s`, `2m`, `3h`, `1d` — or a bare
 * whole number of milliseconds. Undefined when it is neither.
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] ?? 'ms'];
}

/** A number of milliseconds as it would be written: in the largest unit it is a whole number of (`86400000` → `1d`). */
export function formatDuration(ms: number): string {
  const [unit, size] = Object.entries(UNIT_MS)
    .sort(([, a], [, b]) => b - a)
    .find(([, size]) => ms % size === 0 && ms >= size) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

/** `5s, 30s, 2m` → milliseconds; or the position (from 1) of the first item that is not a duration. */
export function parseDurationList(text: string): { ok: true; ms: number[] } | { ok: false; item: number } {
  const items = text.split(',');
  const ms: number[] = [];
  for (const [index, item] of items.entries()) {
    const value = parseDuration(item);
    if (value === undefined) return { ok: false, item: index + 1 };
    ms.push(value);
  }
  return { ok: true, ms };
}
