import { Inject, Injectable } from '@nestjs/common';
import { type MovementView, toMovementView } from '../movement';
import { type MovementSearch, type MovementSort, MovementStore } from '../persistence';
import { asValidation } from './store-argument-errors';
import { storedMovement } from './stored-movement';

/** The stored movements as giro knows them, without asking the bank: one by its originId or network id, or a search. */
@Injectable()
export class MovementService {
  constructor(@Inject(MovementStore) private readonly store: MovementStore) {}

  /** The stored movement, with its history and cancellation (MovementNotFoundError). */
  async getMovement(originId: number): Promise<MovementView> {
    return toMovementView(await storedMovement(this.store, originId));
  }

  /** The movement the network identified by `networkId` (`details.networkId`), or null (a partial index serves it). */
  async findByNetworkId(networkId: string): Promise<MovementView | null> {
    const page = await asValidation(() => this.store.listDetails({ networkId, limit: 1 }));
    return page.items.length === 0 ? null : toMovementView(page.items[0]);
  }

  /**
   * The movements a search finds (every one without filters), a page at a time: by originId unless `sort` says
   * by creation time (`-createdAt`: newest first); `after` = the previous page's `nextCursor` of the same sort.
   */
  async listMovements(
    filter: MovementSearch,
    page: { limit: number; after?: string; sort?: MovementSort },
  ): Promise<{ items: MovementView[]; nextCursor: string | null }> {
    const result = await asValidation(() => this.store.listDetails({ ...filter, ...page }));
    return { items: result.items.map(toMovementView), nextCursor: result.nextCursor };
  }
}
