import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { AnomaliesController } from './anomalies/anomalies.controller';
import { ApprovalsController } from './approvals/approvals.controller';
import { AuditController } from './audit/audit.controller';
import { TransferBatchController } from './batch/transfer-batch.controller';
import { CancellationsController } from './cancellations/cancellations.controller';
import { TransferExportController } from './export/transfer-export.controller';
import { KeysController } from './keys/keys.controller';
import { OverviewController } from './overview/overview.controller';
import { PayeesController } from './payees/payees.controller';
import { DailyCloseController } from './reports/daily-close.controller';
import { ScheduledTransfersController } from './scheduled/scheduled-transfers.controller';
import { AdminAuditInterceptor } from './shared/http/admin-audit.interceptor';
import { ADMIN_TOKEN, AdminAuthentication } from './shared/http/admin-authentication';
import { AdminRefusalAudit } from './shared/http/admin-refusal-audit';
import { AdminRequestIdMiddleware } from './shared/http/admin-request-id';
import { AdminRoleGuard } from './shared/http/admin-role.guard';
import { AdminRouteTable } from './shared/http/admin-route-table';
import { AdminTraceInterceptor } from './shared/http/admin-trace.interceptor';
import { SecretRedactor } from './shared/http/secret-redactor';
import { TransferErrorsFilter } from './shared/http/transfer-errors.filter';
import { STATEMENT_COLUMN_NAMES } from './statements/statement-columns.token';
import { StatementsController } from './statements/statements.controller';
import { SubAccountsController } from './sub-accounts/sub-accounts.controller';
import { adminSweepProvider } from './sweep/admin-sweep';
import { ReconcileController } from './sweep/reconcile.controller';
import {
  checkTransferAdminOptions,
  statementColumnsOf,
  type TransferAdminModuleOptions,
} from './transfer-admin.options';
import { ConfigurableTransferAdminModule, TRANSFER_ADMIN_MODULE_OPTIONS } from './transfer-admin-module.definition';
import { BankLookupController } from './transfers/bank-lookup.controller';
import { TransferRawController } from './transfers/transfer-raw.controller';
import { TransfersController } from './transfers/transfers.controller';
import { WebhookDeliveriesController } from './webhooks/webhook-deliveries.controller';
import { WebhooksController } from './webhooks/webhooks.controller';

/** In the order Express tries their routes. */
const ADMIN_CONTROLLERS = [
  OverviewController,
  // Before TransfersController: `batch`, `export.csv` and `scheduled-totals` are not originIds.
  TransferBatchController,
  TransferExportController,
  ScheduledTransfersController,
  TransfersController,
  ApprovalsController,
  TransferRawController,
  BankLookupController,
  SubAccountsController,
  PayeesController,
  DailyCloseController,
  CancellationsController,
  AnomaliesController,
  StatementsController,
  AuditController,
  ReconcileController,
  KeysController,
  WebhooksController,
  WebhookDeliveriesController,
];

/**
 * giro's admin REST API in a Nest application: `TransferAdminModule.forRoot({ adminToken, runSweep? })` or
 * `forRootAsync({ imports, inject, useFactory | useClass })`. Its routes (`/admin/transfers…`,
 * `/admin/reconcile`, `/admin/cancellations…`, `/admin/anomalies…`, `/admin/statements…`, `/admin/audit`, approvals (`/admin/transfers/…/approve`, `/reject`), scheduled transfers' `/cancel`, `/admin/keys…`, `/admin/webhooks…`) need a bearer credential — the admin token or an
 * API key — with the role each route declares; their validation pipe and error filter are their own, so the
 * application's other routes are untouched. TransferModule's services (and SweepService, unless
 * `runSweep` is given) must be injectable here: import TransferModule with `isGlobal: true`.
 */
@Module({
  controllers: ADMIN_CONTROLLERS,
  providers: [
    {
      provide: ADMIN_TOKEN,
      useFactory: (options: TransferAdminModuleOptions) => checkTransferAdminOptions(options).adminToken,
      inject: [TRANSFER_ADMIN_MODULE_OPTIONS],
    },
    {
      provide: SecretRedactor,
      useFactory: (adminToken: string) => new SecretRedactor([adminToken]),
      inject: [ADMIN_TOKEN],
    },
    {
      provide: STATEMENT_COLUMN_NAMES,
      useFactory: (options: TransferAdminModuleOptions) => statementColumnsOf(options),
      inject: [TRANSFER_ADMIN_MODULE_OPTIONS],
    },
    { provide: AdminRouteTable, useValue: new AdminRouteTable(ADMIN_CONTROLLERS) },
    AdminAuthentication,
    AdminRoleGuard,
    AdminAuditInterceptor,
    AdminRefusalAudit,
    TransferErrorsFilter,
    AdminTraceInterceptor,
    adminSweepProvider,
  ],
  // An application may check the credential before it reads a body or picks a rate-limit budget, and record what
  // its own filters refuse on the admin paths before routing (AdminRefusalAudit).
  exports: [AdminAuthentication, AdminRefusalAudit, SecretRedactor],
})
export class TransferAdminModule extends ConfigurableTransferAdminModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AdminRequestIdMiddleware).forRoutes('admin', 'admin/{*path}');
  }
}
