export {
  BUDGET_DEFAULTS,
  RESOLVED_TRANSFER_OPTIONS,
  type ResolvedTransferOptions,
  resolveTransferModuleOptions,
  SWEEP_DEFAULTS,
  type TransferModuleExtras,
  type TransferModuleOptions,
  TransferModuleOptionsError,
  type TransferPollingOptions,
  type TransferScheduleOptions,
  type TransferSweepOptions,
} from './transfer-module.options';
export {
  type ResolvedWebhookOptions,
  resolveWebhookOptions,
  type TransferWebhookOptions,
  WEBHOOK_RETRY_DELAYS_MS,
} from './webhook-options';
