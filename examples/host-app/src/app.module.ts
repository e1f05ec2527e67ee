import { join } from 'node:path';
import { TransferAdminModule } from '@giro/admin';
import { dataSourceOptionsFromUrl, TransferModule } from '@giro/transfer-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HOST_CONFIG, type HostConfig } from './host-config';
import { HostConfigModule } from './host-config.module';
import { CreatePayouts1700000000000 } from './payouts/create-payouts.migration';
import { Payout } from './payouts/payout.entity';
import { PayoutsModule } from './payouts/payouts.module';
import { SweepTimer } from './sweep-timer';

/** Where giro keeps its tables: a TypeORM data source of this application, on a SQLite file of its own. */
const GIRO_DATA_SOURCE = 'giro';

@Module({})
export class AppModule {
  static forRoot(config: HostConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HostConfigModule.forRoot(config),
        EventEmitterModule.forRoot(),
        // The application's own database, entities and migrations.
        TypeOrmModule.forRoot({
          type: 'better-sqlite3',
          database: join(config.dataDir, 'host.sqlite'),
          entities: [Payout],
          migrations: [CreatePayouts1700000000000],
          migrationsRun: true,
        }),
        // giro's tables in a second data source of the application. On SQLite each data source has a single
        // connection, so giro gets a file of its own; on Postgres it could share the default data source.
        TypeOrmModule.forRootAsync({
          name: GIRO_DATA_SOURCE,
          useFactory: () =>
            dataSourceOptionsFromUrl(`sqlite:${join(config.dataDir, 'giro.sqlite')}`, { name: GIRO_DATA_SOURCE }),
        }),
        TransferModule.forRootAsync({
          dataSourceName: GIRO_DATA_SOURCE,
          isGlobal: true, // PayoutsModule (and any other) injects TransferService
          inject: [HOST_CONFIG],
          useFactory: (host: HostConfig) => ({ bank: host.bank, runMigrations: true, ...host.giro }),
        }),
        // giro's admin API (/admin/transfers, /admin/reconcile, /admin/cancellations) behind this application's
        // own token; POST /admin/reconcile runs SweepService.sweep().
        TransferAdminModule.forRootAsync({
          inject: [HOST_CONFIG],
          useFactory: (host: HostConfig) => ({ adminToken: host.adminToken }),
        }),
        PayoutsModule,
      ],
      providers: [SweepTimer],
    };
  }
}
