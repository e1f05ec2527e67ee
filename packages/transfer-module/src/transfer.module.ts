import { Module } from '@nestjs/common';
import { ApiKeyService, AuditService } from './access';
import { ConfigurableTransferModule } from './module/transfer-module.definition';
import { TRANSFER_PROVIDERS } from './module/transfer-module.providers';
import { MovementStore } from './persistence';
import { SweepService } from './sweep';
import { AnomalyService, ApprovalService, SubAccountService, TransferService } from './transfer';
import { WebhookDispatcher, WebhookService } from './webhooks';

/**
 * giro in a Nest application: `TransferModule.forRoot(options)` or `forRootAsync({ imports, inject,
 * useFactory | useClass, dataSourceName? })`. Provides TransferService, AnomalyService, ApprovalService and
 * SweepService (and the
 * MovementStore, for metrics), WebhookService, and the WebhookDispatcher a host starts beside its sweep.
 * Options are validated at start-up, with messages that name the option. Its parts are listed, one provider
 * each, in `module/transfer-module.providers.ts`.
 */
@Module({
  providers: TRANSFER_PROVIDERS,
  exports: [
    TransferService,
    SubAccountService,
    AnomalyService,
    ApprovalService,
    ApiKeyService,
    AuditService,
    SweepService,
    MovementStore,
    WebhookService,
    WebhookDispatcher,
  ],
})
export class TransferModule extends ConfigurableTransferModule {}
