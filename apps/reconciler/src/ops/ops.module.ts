import { type BankClientOptions, TransferService } from '@giro/transfer-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { BankCallMetrics } from './bank-call-metrics';
import { BankCallObserver } from './bank-call-observer';
import { tlsHandshakeProbe } from './bank-probe';
import { BANK_PROBE, HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MovementEventsLogger } from './movement-events.logger';
import { MovementLogInterceptor } from './movement-log.interceptor';
import { ReconcilerMetrics } from './reconciler-metrics';

/**
 * The reconciler's operations: `/health` (database and bank), `/metrics` (movements, bank calls, sweeps), and
 * the movements in the JSON logs (their events, and the originId on request lines). Exports ReconcilerMetrics.
 */
@Module({})
export class ReconcilerOpsModule {
  static forRoot(options: { bank: BankClientOptions }): DynamicModule {
    const { bank } = options;
    return {
      module: ReconcilerOpsModule,
      imports: [TerminusModule.forRoot()],
      controllers: [HealthController, MetricsController],
      providers: [
        {
          provide: ReconcilerMetrics,
          useFactory: (transfers: TransferService) => new ReconcilerMetrics(transfers),
          inject: [TransferService],
        },
        {
          provide: BankCallObserver,
          useFactory: (metrics: ReconcilerMetrics) =>
            new BankCallObserver(bank.baseUrl, (call) => metrics.recordBankCall(call)),
          inject: [ReconcilerMetrics],
        },
        BankCallMetrics,
        { provide: BANK_PROBE, useFactory: () => tlsHandshakeProbe(bank) },
        MovementEventsLogger,
        { provide: APP_INTERCEPTOR, useClass: MovementLogInterceptor },
      ],
      exports: [ReconcilerMetrics],
    };
  }
}
