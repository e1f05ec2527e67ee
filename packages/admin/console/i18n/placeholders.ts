/** A `{name}` placeholder of a message; splitting at it keeps the name (the split's odd parts). */
const PLACEHOLDER = /\{(\w+)\}/;

/** A part of a message: its own text, or a value given for one of its placeholders. */
export type MessagePart = { text: string } | { value: string };

/**
 * A message split at its `{name}` placeholders: its text, and the value of each placeholder `values` gives (one it
 * does not give stays as written, to be seen). No part is empty.
 */
export function messageParts(message: string, values: Record<string, string | number>): MessagePart[] {
  return message.split(PLACEHOLDER).flatMap((part, index): MessagePart[] => {
    if (index % 2 === 0) return part === '' ? [] : [{ text: part }];
    return Object.hasOwn(values, part) ? [{ value: String(values[part]) }] : [{ text: `{${part}}` }];
  });
}
