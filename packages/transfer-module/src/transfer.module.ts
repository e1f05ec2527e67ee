import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { BankClient } from './bank';
import { type HostDataSource, openTransferDataSource, type TransferDataSource } from './module/transfer-data-source';
import {
  ConfigurableTransferModule,
  HOST_DATA_SOURCE,
  TRANSFER_MODULE_OPTIONS,
} from './module/transfer-module.definition';
import {
  type ResolvedTransferOptions,
  resolveTransferModuleOptions,
  type TransferModuleOptions,
} from './module/transfer-module.options';
import { createTransferRuntime, TRANSFER_RUNTIME, type TransferRuntime } from './module/transfer-runtime';
import { MovementStore } from './persistence';
import { ReconcileService } from './reconcile/reconcile.service';
import { TransferService } from './transfer/transfer.service';

const TRANSFER_OPTIONS = Symbol('giro:ResolvedTransferOptions');
const TRANSFER_DATA_SOURCE = Symbol('giro:TransferDataSource');

/** Closes what the module opened, once the services have stopped (after every onModuleDestroy). */
@Injectable()
class TransferResources implements OnApplicationShutdown {
  constructor(
    @Inject(TRANSFER_DATA_SOURCE) private readonly database: TransferDataSource,
    @Inject(BankClient) private readonly bank: BankClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bank.close();
    if (this.database.owned && this.database.dataSource.isInitialized) await this.database.dataSource.destroy();
  }
}

/**
 * giro in a Nest application: `TransferModule.forRoot(options)` or `forRootAsync({ imports, inject,
 * useFactory | useClass, dataSourceName? })`. Provides TransferService and ReconcileService (and the
 * MovementStore, for metrics). Options are validated at start-up, with messages that name the option.
 */
@Module({
  providers: [
    {
      provide: TRANSFER_OPTIONS,
      useFactory: (options: TransferModuleOptions) => resolveTransferModuleOptions(options),
      inject: [TRANSFER_MODULE_OPTIONS],
    },
    {
      provide: TRANSFER_DATA_SOURCE,
      useFactory: (options: ResolvedTransferOptions, host: HostDataSource) => openTransferDataSource(options, host),
      inject: [TRANSFER_OPTIONS, HOST_DATA_SOURCE],
    },
    {
      provide: BankClient,
      useFactory: (options: ResolvedTransferOptions) => new BankClient(options.bank),
      inject: [TRANSFER_OPTIONS],
    },
    {
      provide: TRANSFER_RUNTIME,
      useFactory: (
        options: ResolvedTransferOptions,
        database: TransferDataSource,
        bank: BankClient,
        events: EventEmitter2 | undefined,
      ) => createTransferRuntime({ options, dataSource: database.dataSource, bank, events }),
      inject: [TRANSFER_OPTIONS, TRANSFER_DATA_SOURCE, BankClient, { token: EventEmitter2, optional: true }],
    },
    {
      provide: MovementStore,
      useFactory: (runtime: TransferRuntime) => runtime.store,
      inject: [TRANSFER_RUNTIME],
    },
    TransferResources,
    TransferService,
    ReconcileService,
  ],
  exports: [TransferService, ReconcileService, MovementStore],
})
export class TransferModule extends ConfigurableTransferModule {}
