import { Module } from '@nestjs/common';
import { AnomaliesController } from './anomalies/anomalies.controller';
import { ApprovalsController } from './approvals/approvals.controller';
import { AuditController } from './audit/audit.controller';
import { TransferBatchController } from './batch/transfer-batch.controller';
import { CancellationsController } from './cancellations/cancellations.controller';
import { TransferExportController } from './export/transfer-export.controller';
import { KeysController } from './keys/keys.controller';
import { OverviewController } from './overview/overview.controller';
import { AdminAuditInterceptor } from './shared/http/admin-audit.interceptor';
import { ADMIN_TOKEN, AdminAuthentication } from './shared/http/admin-authentication';
import { AdminRoleGuard } from './shared/http/admin-role.guard';
import { AdminTraceInterceptor } from './shared/http/admin-trace.interceptor';
import { SubAccountsController } from './sub-accounts/sub-accounts.controller';
import { adminSweepProvider } from './sweep/admin-sweep';
import { ReconcileController } from './sweep/reconcile.controller';
import { checkTransferAdminOptions, type TransferAdminModuleOptions } from './transfer-admin.options';
import { ConfigurableTransferAdminModule, TRANSFER_ADMIN_MODULE_OPTIONS } from './transfer-admin-module.definition';
import { BankLookupController } from './transfers/bank-lookup.controller';
import { TransferRawController } from './transfers/transfer-raw.controller';
import { TransfersController } from './transfers/transfers.controller';
import { WebhookDeliveriesController } from './webhooks/webhook-deliveries.controller';
import { WebhooksController } from './webhooks/webhooks.controller';

/**
 * giro's admin REST API in a Nest application: `TransferAdminModule.forRoot({ adminToken, runSweep? })` or
 * `forRootAsync({ imports, inject, useFactory | useClass })`. Its routes (`/admin/transfers…`,
 * `/admin/reconcile`, `/admin/cancellations…`, `/admin/anomalies…`, `/admin/audit`, approvals (`/admin/transfers/…/approve`, `/reject`), `/admin/keys…`, `/admin/webhooks…`) need a bearer credential — the admin token or an
 * API key — with the role each route declares; their validation pipe and error filter are their own, so the
 * application's other routes are untouched. TransferModule's services (and SweepService, unless
 * `runSweep` is given) must be injectable here: import TransferModule with `isGlobal: true`.
 */
@Module({
  controllers: [
    OverviewController,
    // Before TransfersController: `batch` and `export.csv` are not originIds.
    TransferBatchController,
    TransferExportController,
    TransfersController,
    ApprovalsController,
    TransferRawController,
    BankLookupController,
    SubAccountsController,
    CancellationsController,
    AnomaliesController,
    AuditController,
    ReconcileController,
    KeysController,
    WebhooksController,
    WebhookDeliveriesController,
  ],
  providers: [
    {
      provide: ADMIN_TOKEN,
      useFactory: (options: TransferAdminModuleOptions) => checkTransferAdminOptions(options).adminToken,
      inject: [TRANSFER_ADMIN_MODULE_OPTIONS],
    },
    AdminAuthentication,
    AdminRoleGuard,
    AdminAuditInterceptor,
    AdminTraceInterceptor,
    adminSweepProvider,
  ],
  // An application may check the credential before it reads a body or picks a rate-limit budget.
  exports: [AdminAuthentication],
})
export class TransferAdminModule extends ConfigurableTransferAdminModule {}
