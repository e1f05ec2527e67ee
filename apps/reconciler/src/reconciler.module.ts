import {
  type BankClientOptions,
  type Clock,
  dataSourceOptionsFromUrl,
  MovementStore,
  systemClock,
  TransferModule,
} from '@giro/transfer-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ADMIN_TOKEN, AdminTokenGuard } from './admin/admin-token.guard';
import { CancellationsController } from './admin/cancellations.controller';
import { ReconcileController } from './admin/reconcile.controller';
import { TransferErrorsFilter } from './admin/transfer-errors.filter';
import { TransfersController } from './admin/transfers.controller';
import type { ReconcilerConfig } from './config/reconciler-config';
import { transferModuleOptions } from './config/transfer-module-options';
import { BankCallMetrics } from './ops/bank-call-metrics';
import { BankCallObserver } from './ops/bank-call-observer';
import { tlsHandshakeProbe } from './ops/bank-probe';
import { BANK_PROBE, HealthController } from './ops/health.controller';
import { loggerParams } from './ops/logger-params';
import { MetricsController } from './ops/metrics.controller';
import { MovementEventsLogger } from './ops/movement-events.logger';
import { ReconcilerMetrics } from './ops/reconciler-metrics';
import { SWEEP_CLOCK, SWEEP_INTERVAL, SweepLifecycle, sweepRunnerProvider } from './sweep/sweep.providers';

export interface ReconcilerModuleOptions {
  config: ReconcilerConfig;
  /** The bank to work with: the real one from the configuration, or the sandbox bank in sandbox mode. */
  bank: BankClientOptions;
  /** ADMIN_TOKEN, or the one sandbox mode generated. */
  adminToken: string;
  /**
   * Default: a sweep whenever a movement falls due, at most `config.sweepIntervalMs` apart. False: only on
   * demand (`POST /admin/reconcile`, the CLI).
   */
  scheduleSweeps?: boolean;
  /** The source of "now" for the transfer module (tests move a manual clock). */
  clock?: Clock;
  /** Where the JSON logs go (default stdout). */
  logDestination?: DestinationStream;
}

/** A database that is still starting (containers started together) gets a few chances. */
const DATABASE_CONNECT = { retryAttempts: 5, retryDelay: 2000 };

/**
 * The reconciler: giro's TransferModule on the database of DATABASE_URL (migrations run at start, under the
 * Postgres advisory lock), the admin API, health, metrics, JSON logs and the recurring sweep.
 */
@Module({})
export class ReconcilerModule {
  static forRoot(options: ReconcilerModuleOptions): DynamicModule {
    const { config, bank } = options;
    return {
      module: ReconcilerModule,
      imports: [
        LoggerModule.forRoot(loggerParams(config.logLevel, options.logDestination)),
        EventEmitterModule.forRoot(),
        ScheduleModule.forRoot(),
        ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: config.adminRateLimitPerMinute }] }),
        TerminusModule.forRoot(),
        TypeOrmModule.forRoot({ ...dataSourceOptionsFromUrl(config.databaseUrl), ...DATABASE_CONNECT }),
        TransferModule.forRoot(transferModuleOptions(config, bank, options.clock)),
      ],
      controllers: [
        TransfersController,
        CancellationsController,
        ReconcileController,
        HealthController,
        MetricsController,
      ],
      providers: [
        { provide: ADMIN_TOKEN, useValue: options.adminToken },
        AdminTokenGuard,
        { provide: APP_GUARD, useClass: ThrottlerGuard },
        { provide: APP_FILTER, useClass: TransferErrorsFilter },
        {
          provide: ReconcilerMetrics,
          useFactory: (store: MovementStore) => new ReconcilerMetrics(store),
          inject: [MovementStore],
        },
        {
          provide: BankCallObserver,
          useFactory: (metrics: ReconcilerMetrics) =>
            new BankCallObserver(bank.baseUrl, (call) => metrics.recordBankCall(call)),
          inject: [ReconcilerMetrics],
        },
        BankCallMetrics,
        { provide: BANK_PROBE, useFactory: () => tlsHandshakeProbe(bank) },
        { provide: SWEEP_INTERVAL, useValue: options.scheduleSweeps === false ? null : config.sweepIntervalMs },
        { provide: SWEEP_CLOCK, useValue: options.clock ?? systemClock },
        sweepRunnerProvider,
        SweepLifecycle,
        MovementEventsLogger,
      ],
    };
  }
}
