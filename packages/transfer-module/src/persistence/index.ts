export { ApiKeyNameTakenError, ApiKeyNotFoundError } from './api-key.errors';
export { type ApiKeyCredential, type ApiKeyRecord, ApiKeyStore, type NewApiKey } from './api-key-store';
export { auditHash, GENESIS_HASH, type HashedAuditColumns } from './audit-hash';
export type {
  AuditChange,
  AuditCheckpoint,
  AuditEntry,
  AuditFilter,
  AuditOutcome,
  AuditPage,
  AuditPageRequest,
  AuditRecord,
  AuditVerification,
} from './audit-records';
export { AUDIT_LOCK_KEY, AuditTrail, type AuditTrailOptions } from './audit-trail';
export {
  type AccountCloseFigures,
  type CloseTally,
  type DailyCloseQuery,
  emptyFigures,
} from './daily-close';
export { DEFAULT_DATABASE_START_TIMEOUT_MS, initializeWhenReachable } from './database-start';
export {
  DEFAULT_DATABASE_POOL_SIZE,
  DEFAULT_DATABASE_URL,
  DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
  dataSourceOptionsFromUrl,
  type TransferDataSourceOverrides,
} from './engine/data-source-options';
export { type EngineAdapter, engineAdapterFor, engineCapabilitiesOf } from './engine/engine-adapter';
export * from './entities';
export type { LimitUsageRecord } from './limit-usage';
export * from './migrations';
export type { AnomalyListRecord } from './movement-anomalies';
export type { ApprovalDecision, ApprovalOutcome } from './movement-approvals';
export type {
  AnomalyRecord,
  AnomalyResolutionRecord,
  CancellationRecord,
  ClaimedMovement,
  HistoryRecord,
  MovementDetails,
  MovementRecord,
  RecordedActor,
} from './movement-records';
export type { ScheduleOutcome } from './movement-schedule';
export { MovementStore, type MovementStoreOptions } from './movement-store';
export {
  DEFAULT_ORIGIN_ID_BLOCK_SIZE,
  MAX_ORIGIN_ID_BATCH,
  ORIGIN_IDS_PER_MS,
  OriginIdAllocator,
  type OriginIdAllocatorOptions,
} from './origin-id-allocator';
export type { MovementChange, Outbox, OutboxEvent, UnknownDebit } from './outbox';
export type { PayeeEntry, PayeeGate, PayeePayment, PayeeRecord, PayeeSearchOptions } from './payee-book';
export {
  AnomalyAlreadyResolvedError,
  AnomalyNotFoundError,
  ApprovalExpiredError,
  ApprovalNotAwaitedError,
  ApprovalSamePersonError,
  BootstrapApprovalError,
  CancellationNotFoundError,
  LimitExceededError,
  MovementNotFoundError,
  MovementUpdateRejectedError,
  PayeeNotFoundError,
  SelfApprovalError,
  StatementNotFoundError,
  StoreArgumentError,
  SubAccountConflictError,
  SubAccountNotFoundError,
  TransferNotScheduledError,
  UnsentMovementError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointNotFoundError,
} from './persistence.errors';
export { HEARTBEAT_LOCK_KEY, type ReplicaCensus, ReplicaRegistry } from './replica-registry';
export { MIGRATION_LOCK_KEY, pendingTransferMigrations, runTransferMigrations } from './run-transfer-migrations';
export {
  CLEAR_SECRETS,
  type EncryptionKey,
  encryptionKeyFrom,
  newEncryptionKey,
  SecretCipher,
  SecretUnreadableError,
} from './secret-cipher';
export type { StatementImportRequest } from './statement-book';
export {
  type LineOutcome,
  STATEMENT_REPORT_ITEMS,
  type StatementImportRecord,
  type StatementItem,
  type StatementLineInput,
  type StatementReport,
} from './statement-records';
export {
  MAX_BATCH_SIZE,
  MAX_LEASE_OWNER_LENGTH,
  MAX_NETWORK_ID_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_REFERENCE_LENGTH,
} from './store-arguments';
export type {
  ApplyUpdateResult,
  ApprovalHold,
  CancellationAcknowledgement,
  CancellationReason,
  ClaimDueOptions,
  HistoryEntry,
  ListAnomaliesOptions,
  ListCancellationsOptions,
  ListMovementsOptions,
  MovementPage,
  MovementPatch,
  MovementSearch,
  MovementSort,
  MovementUpdate,
  RecordIntentOptions,
  RecordIntentResult,
} from './store-types';
export { APPROVAL_HOLDS, approvalHoldsOf, MOVEMENT_SORTS } from './store-types';
export type { SubAccountRecord, SubAccountRegistration } from './sub-account-registry';
export type { UnknownDebitRecord } from './unknown-debits';
export type { DeliveryResult, ListDeliveriesOptions, WebhookDeliveryCounts } from './webhook-deliveries';
export type { WebhookEndpointChanges, WebhookEndpointRegistration } from './webhook-endpoints';
export type {
  ClaimedDelivery,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from './webhook-records';
export { type WebhookDeliveryLane, WebhookStore } from './webhook-store';
