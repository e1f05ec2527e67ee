import { isRecord } from './json-value';

const MAX_WARNING_LENGTH = 300;

/**
 * Some banks answer a repeated originId with 200 and the original movement plus a warning. The warning
 * is the first of `fields` (top-level of the answer) that holds text: a string, or a list of strings or
 * of objects with a `message`/`description`. Returns that text, or undefined.
 */
export function findDuplicateWarning(answer: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const text = warningText(answer[field]);
    if (text) return text.length > MAX_WARNING_LENGTH ? `${text.slice(0, MAX_WARNING_LENGTH - 1)}…` : text;
  }
  return undefined;
}

function warningText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (isRecord(value)) return warningText(value.message ?? value.description);
  if (Array.isArray(value)) {
    const parts = value.map(warningText).filter((part): part is string => part !== undefined);
    return parts.length ? parts.join('; ') : undefined;
  }
  return undefined;
}
