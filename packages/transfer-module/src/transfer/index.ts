export { AnomalyService } from './anomaly.service';
export { type ApprovalBatchItem, ApprovalService, MAX_APPROVAL_BATCH } from './approval.service';
export { BankLookupService } from './bank-lookup.service';
export { BankLookups, type BankLookupView } from './bank-lookups';
export { CancellationService } from './cancellation.service';
export { type DailyCloseRequest, DailyCloseService } from './daily-close.service';
export { MovementService } from './movement.service';
export { PayeeService, type PayeeView, toPayeeView } from './payee.service';
export {
  type CancelBatchItem,
  MAX_CANCEL_BATCH,
  MAX_SCHEDULED_TOTALS,
  type ScheduledTotal,
  type ScheduledTotalsQuery,
  ScheduledTransferService,
} from './scheduled-transfer.service';
export { type StatementImportView, type StatementReportView, StatementService } from './statement.service';
export { SubAccountService, type SubAccountView } from './sub-account.service';
export {
  BankLookupFailedError,
  MovementBusyError,
  PayeeBlockedError,
  PollTooSoonError,
  PspModeRequiredError,
  ScheduleRefusedError,
  TransferConflictError,
  TransferLimitError,
  TransferValidationError,
} from './transfer.errors';
export { type RequestTransferResult, TransferService } from './transfer.service';
export type { ScheduledDay, SendingOptions, TransferOverview } from './transfer-overview';
export { TransferOverviewService } from './transfer-overview.service';
