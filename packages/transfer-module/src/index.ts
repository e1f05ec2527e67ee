// The public API of @giro/transfer-module: what a host application uses — the module, its services, the views
// and events they answer with, the options and their types, the errors, the entities and migrations, and the
// domain's validators. The machinery of the store and of the bank client is not here: `./bank` is the bank
// client alone (for a host that calls the bank without the module), `./persistence` the store (for the
// reconciler's commands and the repository's tests; no compatibility promise beyond this package's version), `./testing` the
// test helpers. A spec pins each list (`public-api.spec.ts`): a change here is always a deliberate one.

// Who may call the admin API: API keys (kept as hashes) and their roles (below, with the domain).
export {
  ApiKeyService,
  type ApiKeyServiceOptions,
  type ApiKeyView,
  type CreatedApiKey,
} from './access/api-key.service';
export { ApiKeyValidationError } from './access/api-key-validation.error';
// The audit trail: who did what, chained by hashes; `runAs` attributes a host's own calls.
export { type AuditCallOptions, AuditService, type AuditView } from './access/audit.service';
// The bank client's errors and options (mutual TLS, access token or OAuth2, HMAC, timeouts, proxy); the client
// itself is `./bank`.
export {
  BankAuthError,
  BankConflictError,
  BankError,
  BankMalformedAnswerError,
  BankMovementNotFoundError,
  BankNotSentError,
  BankOptionsError,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
} from './bank/bank.errors';
export type { BankCallBudgetOptions } from './bank/bank-call-budget';
export type {
  BankAuthOptions,
  BankClientOptions,
  BankHmacOptions,
  BankOAuth2Options,
  BankTimeouts,
} from './bank/bank-client.options';
export {
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  type HmacAlgorithm,
  type HmacHeaderNames,
  type HmacPreset,
  type RequestSigner,
  type SignatureHeaders,
  type SigningInput,
} from './bank/hmac-signer';
export type { OAuth2ClientAuthentication, OAuth2ClientCredentials } from './bank/oauth2-token-provider';
export { Secret, type SecretInput, secret } from './bank/secret';
export type { BankTlsOptions } from './bank/tls-material';
export type { TokenProvider } from './bank/token-provider';
// The domain: statuses, identifiers, money, the polling rule, the transfer request's validation and its OpenAPI
// schema.
export {
  type AccountLimits,
  type AccountLimitsOptions,
  LIMIT_RULES,
  type LimitRule,
  SourceAccountLimits,
  type SourceAccountLimitsOptions,
} from './domain/account-limits';
export { ANOMALY_KIND_NAMES, ANOMALY_KINDS, type AnomalyKind } from './domain/anomaly-kinds';
export { API_KEY_PREFIX, redactApiKeys } from './domain/api-key';
export {
  type ApprovalOptions,
  ApprovalPolicy,
  DEFAULT_APPROVAL_EXPIRY_MS,
} from './domain/approval-policy';
export { BankCalendar, CALENDAR_YEARS } from './domain/argentine-calendar';
export {
  AWAITING_APPROVAL_STATUS,
  BANK_STATUSES,
  type BankStatus,
  CANCELED_STATUS,
  FINAL_STATUSES,
  type FinalStatus,
  isFinalStatus,
  isMovementStatus,
  isUnsentStatus,
  MOVEMENT_STATUSES,
  type MovementStatus,
  PENDING_STATUS,
  REJECTED_STATUS,
  SCHEDULED_STATUS,
} from './domain/bank-status';
export { BUSINESS_TIME_ZONE, businessDayBounds, businessDayOf } from './domain/business-day';
export { completeCbuCvu, explainCbuCvu, isCvu, isValidCbuCvu } from './domain/cbu-cvu';
export { type Clock, systemClock } from './domain/clock';
export { CONCEPT_CODES, type ConceptCode, DEFAULT_CONCEPT, isConceptCode } from './domain/concept';
export { CUIT_PREFIXES, completeCuit, explainCuit, isValidCuit } from './domain/cuit';
export { type CurrencyId, isCurrencyId, PESO_CURRENCY_ID } from './domain/currency';
// Errors: every one the admin API answers is a GiroError with a stable code (docs/errors.md).
export { ERROR_CODES, type ErrorCode, errorCodeForStatus, isErrorCode } from './domain/error-codes';
export {
  type ExecutionRequest,
  NON_BUSINESS_DAY_POLICIES,
  type NonBusinessDayPolicy,
} from './domain/execution-schedule';
export { BOOTSTRAP_CREDENTIALS } from './domain/four-eyes';
export { GiroError } from './domain/giro-error';
export {
  type AmountRules,
  amountToWire,
  DEFAULT_MAX_AMOUNT,
  type DecimalAmount,
  isDecimalAmount,
  MAX_WIRE_AMOUNT,
  type ParseAmountResult,
  parseAmount,
} from './domain/money';
export { explainOriginId, isValidOriginId, MAX_ORIGIN_ID } from './domain/origin-id';
export { DEFAULT_POLLING_OPTIONS, PollingPolicy, type PollingPolicyOptions } from './domain/polling-policy';
export {
  type Actor,
  BOOTSTRAP_ADMIN_ACTOR,
  CLI_ACTOR,
  isRole,
  ROLES,
  type Role,
  roleAllows,
  rolesAllowed,
} from './domain/roles';
export { explainSourceAccounts, type SourceAccount } from './domain/source-accounts';
export {
  type TransferInput,
  type TransferParty,
  type TransferRequestWire,
  type ValidateTransferResult,
  validateTransferIntent,
} from './domain/transfer-intent';
export { transferRequestOpenApiSchema } from './domain/transfer-request';
export {
  DEFAULT_MAX_DESCRIPTION_LENGTH,
  type TransferIntentRules,
  type TransferLimits,
  transferLimitsOf,
} from './domain/transfer-rules';
export type { Violation, ViolationParams } from './domain/violation';
export type {
  BankAccountRoutingView,
  BankCounterpartyView,
  BankDetailsView,
  BankSubAccountView,
} from './movement/bank-details-view';
export type {
  AccountCloseView,
  CloseFiguresView,
  CloseTallyView,
  DailyCloseView,
} from './movement/daily-close-view';
// What the services return and announce: the movement as a view, and the events.
export {
  type MovementAnomalyEvent,
  type MovementCompletedEvent,
  type MovementFailedEvent,
  type MovementStatusChangedEvent,
  TRANSFER_EVENTS,
} from './movement/movement-events';
export type {
  AnomalyListItemView,
  AnomalyResolutionView,
  AnomalyView,
  CancellationView,
  HistoryView,
  MovementView,
  ScheduleView,
  UnknownDebitView,
} from './movement/movement-view';
// The module's options (the bank client's are above).
export {
  BUDGET_DEFAULTS,
  SWEEP_DEFAULTS,
  type TransferModuleExtras,
  type TransferModuleOptions,
  TransferModuleOptionsError,
  type TransferPollingOptions,
  type TransferScheduleOptions,
  type TransferSweepOptions,
} from './options/transfer-module.options';
export { type TransferWebhookOptions, WEBHOOK_RETRY_DELAYS_MS } from './options/webhook-options';
// The database: giro's own, or the host's TypeORM data source with giro's entities and migrations.
export { MOVEMENT_SORTS, type MovementSearch, type MovementSort } from './persistence';
export { ApiKeyNameTakenError, ApiKeyNotFoundError } from './persistence/api-key.errors';
export type { AuditCheckpoint, AuditFilter, AuditOutcome, AuditVerification } from './persistence/audit-records';
export type { AuditRequest } from './persistence/audit-scope';
export {
  DatabaseStartError,
  type DatabaseStartOptions,
  DEFAULT_DATABASE_START_TIMEOUT_MS,
} from './persistence/database-start';
export { isDatabaseUnavailable } from './persistence/database-unavailable';
export {
  DEFAULT_DATABASE_URL,
  databaseFileOf,
  dataSourceOptionsFromUrl,
  type TransferDataSourceOverrides,
} from './persistence/engine/data-source-options';
export {
  AnomalyResolutionEntity,
  ApiKeyEntity,
  AuditEntryEntity,
  CancellationEntity,
  ClosedDayEntity,
  LimitUsageEntity,
  MovementEntity,
  MovementHistoryEntity,
  OriginIdCounterEntity,
  SubAccountEntity,
  TRANSFER_ENTITIES,
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
} from './persistence/entities';
export { TRANSFER_MIGRATIONS } from './persistence/migrations';
export {
  AnomalyAlreadyResolvedError,
  AnomalyNotFoundError,
  ApprovalExpiredError,
  ApprovalNotAwaitedError,
  ApprovalSamePersonError,
  BootstrapApprovalError,
  CancellationNotFoundError,
  MovementNotFoundError,
  PayeeNotFoundError,
  SelfApprovalError,
  StatementNotFoundError,
  SubAccountConflictError,
  SubAccountNotFoundError,
  TransferNotScheduledError,
  UnsentMovementError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointNotFoundError,
} from './persistence/persistence.errors';
export { runTransferMigrations } from './persistence/run-transfer-migrations';
export {
  STATEMENT_ANOMALIES,
  STATEMENT_REPORT_ITEMS,
  type StatementItem,
  type StatementLineInput,
} from './persistence/statement-records';
export type { WebhookDeliveryCounts } from './persistence/webhook-deliveries';
// The services, and their errors by what the caller must do.
export { SweepService } from './sweep/sweep.service';
export type { SweepReport } from './sweep/sweep-report';
export { AnomalyService } from './transfer/anomaly.service';
export { type ApprovalBatchItem, ApprovalService, MAX_APPROVAL_BATCH } from './transfer/approval.service';
export { BankLookupService } from './transfer/bank-lookup.service';
export type { BankLookupView } from './transfer/bank-lookups';
export { CancellationService } from './transfer/cancellation.service';
export { type DailyCloseRequest, DailyCloseService } from './transfer/daily-close.service';
export { MovementService } from './transfer/movement.service';
export { PayeeService, type PayeeView } from './transfer/payee.service';
export {
  type CancelBatchItem,
  MAX_CANCEL_BATCH,
  MAX_SCHEDULED_TOTALS,
  type ScheduledTotal,
  type ScheduledTotalsQuery,
  ScheduledTransferService,
} from './transfer/scheduled-transfer.service';
export {
  type StatementImportView,
  type StatementReportView,
  StatementService,
} from './transfer/statement.service';
export { SubAccountService, type SubAccountView } from './transfer/sub-account.service';
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
} from './transfer/transfer.errors';
export { type RequestTransferResult, TransferService } from './transfer/transfer.service';
export type { ScheduledDay, SendingOptions, TransferOverview } from './transfer/transfer-overview';
export { TransferOverviewService } from './transfer/transfer-overview.service';
// The module.
export { TransferModule } from './transfer.module';
export { WebhooksDisabledError, WebhookValidationError } from './webhooks/webhook.errors';
export { ENVIRONMENT_ENDPOINT_ID, type WebhookEndpointWithSecret, WebhookService } from './webhooks/webhook.service';
// Webhooks: the outbox's events, their endpoints and deliveries (Standard Webhooks).
export { type WebhookAttemptObserver, WebhookDispatcher } from './webhooks/webhook-dispatcher';
export {
  WEBHOOK_EVENT_TYPES,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookPayload,
} from './webhooks/webhook-event-types';
export { explainWebhookSecret, newWebhookSecret } from './webhooks/webhook-signature';
export { explainWebhookUrl } from './webhooks/webhook-target';
export type { WebhookAttemptView, WebhookDeliveryView, WebhookEndpointView } from './webhooks/webhook-views';
