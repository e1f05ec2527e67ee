/** The set with `value` added, or taken out when it was in: a ticked box of a list. A new set, for Preact's state. */
export function toggled<T>(set: ReadonlySet<T>, value: T): Set<T> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}
