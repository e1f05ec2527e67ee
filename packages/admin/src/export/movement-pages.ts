import type { MovementView } from '@giro/transfer-module';

export interface MovementPage {
  items: MovementView[];
  nextCursor: string | null;
}

/**
 * Every movement of a search, a page at a time: the first page as given (read before anything was answered, so
 * that a bad query is still a 400), then each next one read when the previous was consumed — only one page is
 * held at a time, however many the search finds.
 */
export async function* movementsOf(
  first: MovementPage,
  nextPage: (after: string) => Promise<MovementPage>,
): AsyncGenerator<MovementView> {
  let page = first;
  for (;;) {
    yield* page.items;
    if (page.nextCursor === null) return;
    page = await nextPage(page.nextCursor);
  }
}
