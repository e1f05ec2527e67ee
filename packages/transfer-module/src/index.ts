export * from './bank';
export * from './domain';
export {
  BUDGET_DEFAULTS,
  type ResolvedTransferOptions,
  SWEEP_DEFAULTS,
  type TransferModuleExtras,
  type TransferModuleOptions,
  TransferModuleOptionsError,
  type TransferSweepOptions,
} from './module/transfer-module.options';
export * from './persistence';
export * from './reconcile';
export * from './transfer';
export { TransferModule } from './transfer.module';
