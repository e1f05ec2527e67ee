import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Clock } from '../domain';
import type { AuditTrail } from './audit-trail';
import { type EngineAdapter, engineAdapterFor } from './engine/engine-adapter';
import type { Transactions } from './engine/transactions';
import { MovementEntity } from './entities';
import type { Outbox } from './outbox';
import { MovementNotFoundError } from './persistence.errors';

/**
 * What the parts of MovementStore share: the data source, its engine's adapter (all that differs between SQLite
 * and Postgres) and transactions, the store's clock,
 * the outbox its changes write their events to (none when webhooks are off), the audit trail its changes append to
 * (`audit?.recordChange` in their transactions; none when auditing is off), and the reads of one movement that
 * several of them need.
 */
export class StoreContext {
  readonly engine: EngineAdapter;
  readonly transactions: Transactions;
  /** The store's outbox; its `committed()` also tells the dispatchers of other processes (the engine's announcement). */
  readonly outbox: Outbox | undefined;

  constructor(
    readonly dataSource: DataSource,
    readonly clock: Clock,
    outbox: Outbox | undefined = undefined,
    readonly audit: AuditTrail | undefined = undefined,
  ) {
    this.engine = engineAdapterFor(dataSource);
    this.transactions = this.engine.transactions;
    const { engine } = this;
    this.outbox = outbox && {
      render: (change, atMs) => outbox.render(change, atMs),
      renderDailyClose: (day, figures, atMs) => outbox.renderDailyClose(day, figures, atMs),
      renderUnknownDebits: (debits, atMs) => outbox.renderUnknownDebits(debits, atMs),
      committed: () => {
        outbox.committed();
        engine.announceEventsCommitted();
      },
    };
  }

  nowMs(): number {
    return this.clock.now().getTime();
  }

  selectMovement(
    manager: EntityManager,
    originId: number,
    options: { lock?: boolean } = {},
  ): Promise<MovementEntity | null> {
    let query: SelectQueryBuilder<MovementEntity> = manager
      .createQueryBuilder(MovementEntity, 'm')
      .where('m.originId = :originId', { originId });
    if (options.lock) query = this.engine.lockRows(query);
    return query.getOne();
  }

  async getMovement(
    manager: EntityManager,
    originId: number,
    options: { lock?: boolean } = {},
  ): Promise<MovementEntity> {
    const row = await this.selectMovement(manager, originId, options);
    if (!row) throw new MovementNotFoundError(originId);
    return row;
  }
}
