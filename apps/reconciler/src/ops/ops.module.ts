import {
  type BankClientOptions,
  TransferOverviewService,
  WebhookDispatcher,
  WebhookService,
} from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { BankTlsReloader } from '../certificates/bank-tls-reloader';
import { certificateExpiries } from '../certificates/certificate-expiry';
import { registerCertificateMetrics } from '../certificates/certificate-metrics';
import { AuditCheckpoints } from './audit-checkpoints';
import { BankCallMetrics } from './bank-call-metrics';
import { BankCallObserver } from './bank-call-observer';
import { tlsHandshakeProbe } from './bank-probe';
import { BANK_PROBE, CERTIFICATE_CHECK, HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { METRICS_TOKEN, MetricsTokenGuard } from './metrics-token.guard';
import { MovementEventsLogger } from './movement-events.logger';
import { MovementLogInterceptor } from './movement-log.interceptor';
import { ReconcilerMetrics } from './reconciler-metrics';
import { WebhookMetrics } from './webhook-metrics';

/**
 * The reconciler's operations: `/health/live`, `/health/ready` (database, bank and certificates, cached; `/health`
 * too), `/metrics` (movements, bank calls, sweeps, webhooks, certificates; METRICS_TOKEN), the bank's TLS material
 * reloaded on SIGHUP and when its files change, and
 * the movements in the JSON logs (their events, and the originId on request lines), the audit trail's checkpoints in
 * them (every minute and at shutdown). Exports ReconcilerMetrics.
 */
@Module({})
export class ReconcilerOpsModule {
  static forRoot(options: {
    bank: BankClientOptions;
    metricsToken: string | undefined;
    /** CERT_EXPIRY_WARNING_DAYS. */
    certificateWarningDays: number;
  }): DynamicModule {
    const { bank } = options;
    const tlsFiles = [bank.tls.caFile, bank.tls.certFile, bank.tls.keyFile].filter(
      (file): file is string => file !== undefined,
    );
    return {
      module: ReconcilerOpsModule,
      imports: [TerminusModule.forRoot()],
      controllers: [HealthController, MetricsController],
      providers: [
        {
          provide: ReconcilerMetrics,
          useFactory: (overview: TransferOverviewService, client: BankClient) => {
            const metrics = new ReconcilerMetrics(overview);
            registerCertificateMetrics(metrics.registry, () => certificateExpiries(client.tlsMaterial()));
            return metrics;
          },
          inject: [TransferOverviewService, BankClient],
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
        {
          provide: BANK_PROBE,
          useFactory: (client: BankClient) =>
            tlsHandshakeProbe(new URL(bank.baseUrl).origin, () => client.tlsMaterial()),
          inject: [BankClient],
        },
        {
          provide: CERTIFICATE_CHECK,
          useFactory: (client: BankClient) => ({
            expiries: () => certificateExpiries(client.tlsMaterial()),
            warningDays: options.certificateWarningDays,
          }),
          inject: [BankClient],
        },
        {
          provide: BankTlsReloader,
          useFactory: (client: BankClient) => new BankTlsReloader(client, tlsFiles),
          inject: [BankClient],
        },
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
