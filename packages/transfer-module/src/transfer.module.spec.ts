import type { SandboxBank } from '@giro/sandbox-bank';
import { Injectable, Module, type ModuleMetadata } from '@nestjs/common';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import {
  giroOptions,
  manualClock,
  startTestSandbox,
  sweepUntilFinal,
  transferRequest,
} from '@test-support/giro-harness';
import {
  Column,
  DataSource,
  type DataSourceOptions,
  Entity,
  type MigrationInterface,
  PrimaryColumn,
  type QueryRunner,
} from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ManualClock } from './domain';
import { TRANSFER_DATA_SOURCE, type TransferDataSource } from './module/transfer-data-source';
import {
  type MovementCompletedEvent,
  type MovementFailedEvent,
  type MovementStatusChangedEvent,
  TRANSFER_EVENTS,
} from './movement';
import type { TransferModuleOptions } from './options/transfer-module.options';
import { dataSourceOptionsFromUrl, MovementStore, TRANSFER_ENTITIES, TRANSFER_MIGRATIONS } from './persistence';
import { describeEachEngine, type EngineDatabase } from './persistence/testing/test-engines';
import { SweepService } from './sweep';
import { TransferOverviewService, TransferService } from './transfer';
import { TransferModule } from './transfer.module';

// TransferModule inside host applications: the host's TypeORM data source (default or named) or its own,
// migrations by option, start-up checks that name what is wrong, events after commit, graceful shutdown.

/** A host application's own table, with its own migration. */
@Entity({ name: 'host_payouts' })
class Payout {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'origin_id', type: 'bigint' })
  originId!: number;
}

class CreatePayouts1700000000000 implements MigrationInterface {
  name = 'CreatePayouts1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "host_payouts" ("id" varchar(40) PRIMARY KEY NOT NULL, "origin_id" bigint NOT NULL)',
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "host_payouts"');
  }
}

interface Heard {
  event: string;
  originId: number;
  /** The movement's status in the database when the listener ran: the change must already be committed. */
  stored: string | undefined;
  cancellationAmount?: string;
}

@Injectable()
class Listener {
  readonly heard: Heard[] = [];
  constructor(private readonly store: MovementStore) {}

  /** Notes the event in the order emitted, then what the database holds when the listener runs. */
  private async hear(event: string, originId: number, extra: Partial<Heard> = {}) {
    const heard: Heard = { event, originId, stored: undefined, ...extra };
    this.heard.push(heard);
    heard.stored = (await this.store.findByOriginId(originId))?.status;
  }

  @OnEvent(TRANSFER_EVENTS.statusChanged, { async: true, promisify: true })
  onChanged(event: MovementStatusChangedEvent) {
    return this.hear(`${event.from}->${event.to}`, event.originId);
  }

  @OnEvent(TRANSFER_EVENTS.completed, { async: true, promisify: true })
  onCompleted(event: MovementCompletedEvent) {
    return this.hear('completed', event.originId);
  }

  @OnEvent(TRANSFER_EVENTS.failed, { async: true, promisify: true })
  onFailed(event: MovementFailedEvent) {
    return this.hear('failed', event.originId, { cancellationAmount: event.cancellation.amount });
  }
}

const RANK: Record<string, number> = { PENDING: 0, CREATED: 1, IN_PROGRESS: 2, DELAYED: 2, COMPLETED: 3, FAILED: 3 };

/** Waits (bounded, real time: generous, as a loaded machine can be slow) for `condition`. */
async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeEachEngine('TransferModule in a host application', (engine) => {
  let bank: SandboxBank;
  let clock: ManualClock;
  let database: EngineDatabase;
  /** Every data source the host's TypeORM opened, closed after each test (even when the start failed). */
  let hostDataSources: DataSource[];

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    database = await engine.createDatabase();
    hostDataSources = [];
  });
  afterEach(async () => {
    for (const dataSource of hostDataSources) if (dataSource.isInitialized) await dataSource.destroy();
    await bank.close();
  });

  /** The host's TypeORM with its own entity and migration (and giro's unless `withGiro: false`). */
  const hostTypeOrm = (options: { withGiro?: boolean; migrate?: boolean } = {}) => {
    const withGiro = options.withGiro ?? true;
    return typeOrm(undefined, {
      ...dataSourceOptionsFromUrl(database.url),
      entities: [Payout, ...(withGiro ? TRANSFER_ENTITIES : [])],
      migrations: [CreatePayouts1700000000000, ...(withGiro ? TRANSFER_MIGRATIONS : [])],
      migrationsTableName: 'host_migrations',
      migrationsRun: options.migrate ?? true,
    });
  };

  const typeOrm = (name: string | undefined, options: DataSourceOptions) =>
    TypeOrmModule.forRootAsync({
      name,
      useFactory: () => ({ ...options, name, retryAttempts: 0 }),
      dataSourceFactory: async (resolved) => {
        const dataSource = new DataSource(resolved as DataSourceOptions);
        hostDataSources.push(dataSource);
        return dataSource.initialize();
      },
    });

  async function start(imports: ModuleMetadata['imports'], providers: ModuleMetadata['providers'] = []) {
    const moduleRef = await Test.createTestingModule({ imports, providers }).compile();
    return moduleRef.init();
  }

  const options = (overrides: Partial<TransferModuleOptions> = {}) => giroOptions(bank, clock, overrides);

  it('shares the host’s default data source (forRootAsync + useFactory) and emits events after commit', async () => {
    @Module({ providers: [{ provide: 'BANK_URL', useFactory: () => bank.url }], exports: ['BANK_URL'] })
    class HostConfigModule {}
    const app = await start(
      [
        EventEmitterModule.forRoot(),
        hostTypeOrm(),
        TransferModule.forRootAsync({
          imports: [HostConfigModule],
          inject: ['BANK_URL'],
          useFactory: async (url: string) => {
            const giro = await options();
            return { ...giro, bank: { ...giro.bank, baseUrl: url } };
          },
        }),
      ],
      [Listener],
    );
    try {
      const transfers = app.get(TransferService);
      const completed = (await transfers.requestTransfer(transferRequest('rent'))).movement;
      const failed = (await transfers.requestTransfer(transferRequest('rent [fail]', { amount: 77 }))).movement;
      const host = app.get<DataSource>(getDataSourceToken());
      await host.getRepository(Payout).insert({ id: 'p-1', originId: completed.originId });
      expect(await host.getRepository(Payout).count()).toBe(1);
      expect(await host.query('SELECT COUNT(*) AS "count" FROM "giro_movements"')).toEqual([
        { count: expect.anything() },
      ]);

      await sweepUntilFinal({ reconcile: app.get(SweepService), overview: app.get(TransferOverviewService) }, clock);
      const heard = app.get(Listener).heard;
      await waitFor(() => heard.length === 8 && heard.every((h) => h.stored !== undefined)); // async listeners
      const of = (originId: number) => heard.filter((h) => h.originId === originId);
      expect(of(completed.originId).map((h) => h.event)).toEqual([
        'PENDING->CREATED',
        'CREATED->IN_PROGRESS',
        'IN_PROGRESS->COMPLETED',
        'completed',
      ]);
      expect(of(failed.originId).map((h) => h.event)).toEqual([
        'PENDING->CREATED',
        'CREATED->IN_PROGRESS',
        'IN_PROGRESS->FAILED',
        'failed',
      ]);
      // Every listener found the change already committed (or a later one).
      for (const h of heard) {
        const to = h.event.includes('->') ? h.event.split('->')[1] : h.event === 'failed' ? 'FAILED' : 'COMPLETED';
        expect(RANK[h.stored as string]).toBeGreaterThanOrEqual(RANK[to]);
      }
      expect(of(failed.originId).at(-1)).toMatchObject({ stored: 'FAILED', cancellationAmount: '77.00' });
    } finally {
      await app.close();
    }
  });

  it('works in a named data source (forRootAsync + useClass, dataSourceName), running its migrations', async () => {
    @Injectable()
    class GiroConfig {
      createTransferModuleOptions() {
        return options({ runMigrations: true });
      }
    }
    const app = await start([
      hostTypeOrm({ withGiro: false }),
      typeOrm('giro', dataSourceOptionsFromUrl(database.url, { name: 'giro' })),
      TransferModule.forRootAsync({ useClass: GiroConfig, dataSourceName: 'giro' }),
    ]);
    try {
      const { movement, created } = await app.get(TransferService).requestTransfer(transferRequest('rent'));
      expect({ status: movement.status, created }).toEqual({ status: 'CREATED', created: true });
      const named = app.get<DataSource>(getDataSourceToken('giro'));
      expect(await named.query('SELECT "status" FROM "giro_movements"')).toEqual([{ status: 'CREATED' }]);
      expect(app.get<DataSource>(getDataSourceToken()).hasMetadata(TRANSFER_ENTITIES[0])).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('opens its own database from databaseUrl, whatever the host has, and closes it at shutdown', async () => {
    const app = await start([
      hostTypeOrm({ withGiro: false }),
      TransferModule.forRoot(await options({ databaseUrl: database.url, runMigrations: true })),
    ]);
    const { movement } = await app.get(TransferService).requestTransfer(transferRequest('rent'));
    const store = app.get(MovementStore);
    await app.close();
    await expect(store.findByOriginId(movement.originId)).rejects.toThrow();
    const check = await database.connect();
    expect(await check.query('SELECT "status" FROM "giro_movements"')).toEqual([{ status: 'CREATED' }]);
  });

  it('opens its own database with a pool of databasePoolSize connections on Postgres (SQLite has one)', async () => {
    const app = await start([
      TransferModule.forRoot(await options({ databaseUrl: database.url, runMigrations: true, databasePoolSize: 3 })),
    ]);
    const { dataSource } = app.get<TransferDataSource>(TRANSFER_DATA_SOURCE);
    if (engine.kind === 'postgres') {
      const pool = (dataSource.driver as PostgresDriver).master as { totalCount: number; waitingCount: number };
      const held = Array.from({ length: 3 }, () => dataSource.createQueryRunner());
      await Promise.all(held.map((runner) => runner.connect()));
      expect(pool.totalCount).toBe(3);
      // A fourth waits for one of the three instead of opening a connection.
      const fourth = dataSource.createQueryRunner();
      const connected = fourth.connect();
      await waitFor(() => pool.waitingCount === 1);
      await held[0].release();
      await connected;
      expect(pool.totalCount).toBe(3);
      await Promise.all([fourth, ...held.slice(1)].map((runner) => runner.release()));
    } else {
      expect(dataSource.options.type).toBe('better-sqlite3');
      await expect(app.get(TransferService).requestTransfer(transferRequest('rent'))).resolves.toBeDefined();
    }
    await app.close();
  });

  it.each([
    [
      'giro’s migrations have not run',
      () => [hostTypeOrm({ migrate: false })],
      {},
      /option runMigrations: giro's migrations have not run/,
    ],
    [
      'no database at all',
      () => [],
      {},
      /option databaseUrl is missing and the application has no TypeORM data source/,
    ],
    [
      'a data source name that names none',
      () => [hostTypeOrm()],
      { dataSourceName: 'nope' },
      /dataSourceName "nope" names no TypeORM data source/,
    ],
    [
      'a data source without giro’s entities',
      () => [hostTypeOrm({ withGiro: false })],
      {},
      /lacks giro's entities .*add TRANSFER_ENTITIES/,
    ],
  ])('refuses to start with %s, saying what to do', async (_, imports, extras, message) => {
    const transferModule = TransferModule.forRootAsync({ useFactory: () => options(), ...extras });
    await expect(start([...imports(), transferModule])).rejects.toThrow(message);
  });

  it('stops gracefully: waits for the send in flight, then releases its leases', async () => {
    bank.configure({ faults: { latencyMs: 300 } });
    const app = await start([
      TransferModule.forRoot(await options({ databaseUrl: database.url, runMigrations: true })),
    ]);
    const inFlight = app.get(TransferService).requestTransfer(transferRequest('rent'));
    await waitFor(() => bank.counters().faults.latency > 0); // the request is at the bank, answered slowly
    await app.close();
    expect((await inFlight).movement).toMatchObject({ status: 'CREATED', attempts: 1 });
    const check = await database.connect();
    expect(await check.query('SELECT "lease_owner" FROM "giro_movements"')).toEqual([{ lease_owner: null }]);
  });
});
