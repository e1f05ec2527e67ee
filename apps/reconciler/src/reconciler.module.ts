import { SecretRedactor, TransferAdminModule } from '@giro/admin';
import {
  type BankClientOptions,
  type Clock,
  dataSourceOptionsFromUrl,
  systemClock,
  TransferModule,
} from '@giro/transfer-module';
import { initializeWhenReachable } from '@giro/transfer-module/persistence';
import { type DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { DataSourceOptions } from 'typeorm';
import type { ReconcilerConfig } from './config/reconciler-config';
import { transferModuleOptions } from './config/transfer-module-options';
import { VARIABLES } from './config/variables';
import { ReconcilerHttpModule } from './http/http.module';
import { loggerParams } from './ops/logger-params';
import { ReconcilerOpsModule } from './ops/ops.module';
import { ReconcilerSweepModule } from './sweep/sweep.module';
import { type ReconcilerSweepRunner, SWEEP_RUNNER } from './sweep/sweep.providers';
import { ReconcilerWebhooksModule } from './webhooks/webhooks.module';

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

const DEFAULT_CERTIFICATE_WARNING_DAYS = VARIABLES.CERT_EXPIRY_WARNING_DAYS.default;

/**
 * Said on stderr as it happens: the logger is only attached once the application is built, and the wait for the
 * database comes before.
 */
function sayAtStart(message: string): void {
  process.stderr.write(`giro-reconciler: ${message}\n`);
}

/**
 * The database of DATABASE_URL (on Postgres, a pool of DATABASE_POOL_SIZE connections). A Postgres server still starting (containers started together) is waited for
 * up to DATABASE_START_TIMEOUT_MS, said once, instead of TypeOrmModule's own retries (`toRetry`), which log every
 * attempt with its stack.
 */
function databaseModule(config: ReconcilerConfig): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => ({
      ...dataSourceOptionsFromUrl(config.databaseUrl, { poolSize: config.databasePoolSize }),
      toRetry: () => false,
    }),
    dataSourceFactory: (options) =>
      initializeWhenReachable(options as DataSourceOptions, {
        timeoutMs: config.databaseStartTimeoutMs,
        notify: sayAtStart,
      }),
  });
}

/**
 * The reconciler, composed: its configuration (JSON logs, events, the schedule's registry, the database of
 * DATABASE_URL) → giro's modules (TransferModule, migrations run at start under the Postgres advisory lock;
 * TransferAdminModule, the admin API, behind ReconcilerHttpModule: the token checked, then the rate limit, then the
 * body read) → the schedule (one sweep runner for the recurring sweep, `POST /admin/reconcile` and the CLI) →
 * operations (health, metrics, movement logs).
 */
@Module({})
export class ReconcilerModule {
  static forRoot(options: ReconcilerModuleOptions): DynamicModule {
    const { config, bank } = options;
    const operations = ReconcilerOpsModule.forRoot({
      bank,
      metricsToken: config.server.metricsToken,
      certificateWarningDays: config.certificateWarningDays ?? DEFAULT_CERTIFICATE_WARNING_DAYS,
    });
    const schedule = ReconcilerSweepModule.forRoot({
      metrics: operations,
      intervalMs: options.scheduleSweeps === false ? null : config.sweepIntervalMs,
      clock: options.clock ?? systemClock,
    });
    const admin = TransferAdminModule.forRootAsync({
      imports: [schedule],
      inject: [SWEEP_RUNNER],
      // The admin's sweeps queue behind the scheduled one in progress: sweeps never overlap.
      useFactory: (runner: ReconcilerSweepRunner) => ({
        adminToken: options.adminToken,
        runSweep: () => runner.runOnce(),
        ...(config.statementColumns !== undefined && { statementColumns: config.statementColumns }),
      }),
    });
    return {
      module: ReconcilerModule,
      imports: [
        // Configuration.
        LoggerModule.forRoot(
          loggerParams(config.logLevel, new SecretRedactor([options.adminToken]), options.logDestination),
        ),
        EventEmitterModule.forRoot(),
        ScheduleModule.forRoot(),
        databaseModule(config),
        // giro's modules. TransferModule is global: the admin API, the schedule and the metrics use its services.
        TransferModule.forRoot({ ...transferModuleOptions(config, bank, options.clock), isGlobal: true }),
        admin,
        // The token checked first, then the rate limit of its credential or address, then the body read.
        ReconcilerHttpModule.forRoot({
          admin,
          limits: {
            perCredential: config.adminRateLimitPerMinute,
            unauthenticated: config.server.unauthenticatedRateLimitPerMinute,
          },
        }),
        // The environment's webhook endpoint (WEBHOOK_URL) in step before the schedule starts delivering.
        ReconcilerWebhooksModule.forRoot({ environmentEndpoint: config.webhooks?.environmentEndpoint }),
        schedule,
        operations,
      ],
    };
  }
}
