/**
 * The texts SQLite's FTS5 index found in a probe's worth of movements or more (movement-search-query.ts,
 * TEXT_PROBE), remembered by a store: asking again reads the whole probe (about 10 ms for a common word at 1 M
 * movements) to learn what does not change. Movements are never deleted, so a text found that often stays so;
 * should a description be changed by hand, a text remembered as common is only read along the page's order, where
 * the same condition still decides. The oldest is forgotten past `capacity`.
 */
export class CommonTexts {
  private readonly texts = new Set<string>();

  constructor(private readonly capacity = 1_000) {}

  has(text: string): boolean {
    return this.texts.has(text);
  }

  add(text: string): void {
    if (this.texts.size >= this.capacity) this.texts.delete(this.texts.values().next().value as string);
    this.texts.add(text);
  }
}
