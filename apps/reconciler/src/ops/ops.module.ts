import {
  type BankClientOptions,
  TransferOverviewService,
  WebhookDispatcher,
  WebhookService,
} from '@giro/transfer-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { AuditCheckpoints } from './audit-checkpoints';
import { BankCallMetrics } from './bank-call-metrics';
import { BankCallObserver } from './bank-call-observer';
import { tlsHandshakeProbe } from './bank-probe';
import { BANK_PROBE, HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { METRICS_TOKEN, MetricsTokenGuard } from './metrics-token.guard';
import { MovementEventsLogger } from './movement-events.logger';
import { MovementLogInterceptor } from './movement-log.interceptor';
import { ReconcilerMetrics } from './reconciler-metrics';
import { WebhookMetrics } from './webhook-metrics';

/**
 * The reconciler's operations: `/health/live`, `/health/ready` (database and bank, cached; `/health` too), `/metrics`
 * (movements, bank calls, sweeps, webhooks; METRICS_TOKEN), and
 * the movements in the JSON logs (their events, and the originId on request lines), the audit trail's checkpoints in
 * them (every minute and at shutdown). Exports ReconcilerMetrics.
 */
@Module({})
export class ReconcilerOpsModule {
  static forRoot(options: { bank: BankClientOptions; metricsToken: string | undefined }): DynamicModule {
    const { bank } = options;
    return {
      module: ReconcilerOpsModule,
      imports: [TerminusModule.forRoot()],
      controllers: [HealthController, MetricsController],
      providers: [
        {
          provide: ReconcilerMetrics,
          useFactory: (overview: TransferOverviewService) => new ReconcilerMetrics(overview),
          inject: [TransferOverviewService],
        },
        {
          // The outbox read at scrape time; this process's attempts as its dispatcher records them.
          provide: WebhookMetrics,
          useFactory: (metrics: ReconcilerMetrics, webhooks: WebhookService, dispatcher: WebhookDispatcher) => {
            const webhookMetrics = new WebhookMetrics(metrics.registry, webhooks);
            dispatcher.observe(webhookMetrics);
            return webhookMetrics;
          },
          inject: [ReconcilerMetrics, WebhookService, WebhookDispatcher],
        },
        {
          provide: BankCallObserver,
          useFactory: (metrics: ReconcilerMetrics) =>
            new BankCallObserver(bank.baseUrl, (call) => metrics.recordBankCall(call)),
          inject: [ReconcilerMetrics],
        },
        BankCallMetrics,
        { provide: BANK_PROBE, useFactory: () => tlsHandshakeProbe(bank) },
        { provide: METRICS_TOKEN, useValue: options.metricsToken },
        MetricsTokenGuard,
        MovementEventsLogger,
        AuditCheckpoints,
        { provide: APP_INTERCEPTOR, useClass: MovementLogInterceptor },
      ],
      exports: [ReconcilerMetrics],
    };
  }
}
