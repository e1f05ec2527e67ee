import { Module } from '@nestjs/common';
import { ApiKeyService, AuditService } from './access';
import { BankClient } from './bank';
import { ConfigurableTransferModule } from './module/transfer-module.definition';
import { TRANSFER_PROVIDERS } from './module/transfer-module.providers';
import { MovementStore } from './persistence';
import { SweepService } from './sweep';
import {
  AnomalyService,
  ApprovalService,
  BankLookupService,
  CancellationService,
  DailyCloseService,
  MovementService,
  PayeeService,
  ScheduledTransferService,
  StatementService,
  SubAccountService,
  TransferOverviewService,
  TransferService,
} from './transfer';
import { WebhookDispatcher, WebhookService } from './webhooks';

/**
 * giro in a Nest application: `TransferModule.forRoot(options)` or `forRootAsync({ imports, inject,
 * useFactory | useClass, dataSourceName? })`. Provides a service per concern — TransferService (creating),
 * MovementService (reading and searching), BankLookupService (asking the bank now), CancellationService,
 * TransferOverviewService (the counts), DailyCloseService (a day's close per account), ApprovalService,
 * ScheduledTransferService, AnomalyService, SubAccountService, PayeeService, StatementService (the bank's statements
 * matched) — and SweepService (and the MovementStore, for metrics), the API keys and the audit trail, WebhookService,
 * and the WebhookDispatcher a host starts beside its sweep.
 * Options are validated at start-up, with messages that name the option. Its parts are listed, one provider
 * each, in `module/transfer-module.providers.ts`.
 */
@Module({
  providers: TRANSFER_PROVIDERS,
  exports: [
    TransferService,
    MovementService,
    BankLookupService,
    CancellationService,
    TransferOverviewService,
    DailyCloseService,
    SubAccountService,
    PayeeService,
    AnomalyService,
    ApprovalService,
    ScheduledTransferService,
    StatementService,
    ApiKeyService,
    AuditService,
    SweepService,
    MovementStore,
    WebhookService,
    WebhookDispatcher,
    // The host reloads its TLS material (`reloadTls()`) and watches its certificates through it.
    BankClient,
  ],
})
export class TransferModule extends ConfigurableTransferModule {}
