export * from './bank';
export * from './domain';
export {
  type ResolvedTransferOptions,
  type TransferModuleExtras,
  type TransferModuleOptions,
  TransferModuleOptionsError,
  type TransferSweepOptions,
} from './module/transfer-module.options';
export * from './persistence';
export * from './reconcile';
export * from './transfer';
export { TransferModule } from './transfer.module';
