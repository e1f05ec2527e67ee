import type { ApiClient } from './client';
import type { Movement, Status } from './types';

/** A bulk route's refused item, with the status its transfer is in now. */
export type RefusedItem<T> = T & { status?: Status };

/**
 * The refused items of a bulk answer (approve, reject, cancel), each with the status its transfer is in now: the
 * item names only its error's code, and the refusal ("it is canceled") is said from the status. Read one by one;
 * a transfer that cannot be read is said without it.
 */
export async function withCurrentStatus<T extends { originId: number; outcome: string }>(
  api: ApiClient,
  items: T[],
): Promise<RefusedItem<T>[]> {
  return Promise.all(
    items
      .filter((item) => item.outcome === 'refused')
      .map(async (item) => ({
        ...item,
        status: await api.get<Movement>(`admin/transfers/${item.originId}`).then(
          (movement) => movement.status,
          () => undefined,
        ),
      })),
  );
}
