import { TransferSchemaBaseline1795291100000 } from './1795291100000-transfer-schema-baseline';
import { CreateTransferSchema1795291200000 } from './1795291200000-create-transfer-schema';
import { AddDueTimeIndex1795377600000 } from './1795377600000-add-due-time-index';
import { DropNetworkIdIndex1795464000000 } from './1795464000000-drop-network-id-index';
import { PendingDueIndex1795550400000 } from './1795550400000-pending-due-index';
import { MovementsFillfactor1795636800000 } from './1795636800000-movements-fillfactor';
import { QueriesHeldUntil1795723200000 } from './1795723200000-queries-held-until';
import { SubAccounts1795896000000 } from './1795896000000-sub-accounts';
import { MovementLookupIds1795982400000 } from './1795982400000-movement-lookup-ids';
import { WebhookOutbox1796068800000 } from './1796068800000-webhook-outbox';
import { ApiKeys1796155200000 } from './1796155200000-api-keys';
import { AnomalyResolutions1796241600000 } from './1796241600000-anomaly-resolutions';
import { LimitUsage1796328000000 } from './1796328000000-limit-usage';
import { AuditTrail1796414400000 } from './1796414400000-audit-trail';
import { Approvals1796500800000 } from './1796500800000-approvals';
import { Replicas1796587200000 } from './1796587200000-replicas';
import { MovementSearch1796673600000 } from './1796673600000-movement-search';
import { MovementText1796760000000 } from './1796760000000-movement-text';
import { MovementStatusAmount1796846400000 } from './1796846400000-movement-status-amount';
import { MovementAmountText1796932800000 } from './1796932800000-movement-amount-text';
import { MovementWords1797019200000 } from './1797019200000-movement-words';
import { MovementOrderCovering1797105600000 } from './1797105600000-movement-order-covering';
import { SearchOnEngineIndexes1797192000000 } from './1797192000000-search-on-engine-indexes';
import { ApiKeyMinters1797278400000 } from './1797278400000-api-key-minters';
import { AuditTrailSealed1797364800000 } from './1797364800000-audit-trail-sealed';
import { WebhookEventTraceParent1797408000000 } from './1797408000000-webhook-event-trace-parent';
import { Payees1797451200000 } from './1797451200000-payees';
import { ScheduledTransfers1797537600000 } from './1797537600000-scheduled-transfers';
import { Statements1797624000000 } from './1797624000000-statements';
import { DailyClose1797710400000 } from './1797710400000-daily-close';
import { AccountQueues1797796800000 } from './1797796800000-account-queues';
import { TextIndexWithoutPositions1797969600000 } from './1797969600000-text-index-without-positions';
import { UnknownDebits1798056000000 } from './1798056000000-unknown-debits';
import { AmountFromStatusIndex1798315200000 } from './1798315200000-amount-from-status-index';
import { StatementRowsUncheckedKeys1798660800000 } from './1798660800000-statement-rows-unchecked-keys';
import { TextIndexAtCommit1798747200000 } from './1798747200000-text-index-at-commit';
import { coveredByBaseline } from './after-baseline';

export { TransferSchemaBaseline1795291100000 } from './1795291100000-transfer-schema-baseline';
export { CreateTransferSchema1795291200000 } from './1795291200000-create-transfer-schema';
export { AddDueTimeIndex1795377600000 } from './1795377600000-add-due-time-index';
export { DropNetworkIdIndex1795464000000 } from './1795464000000-drop-network-id-index';
export { PendingDueIndex1795550400000 } from './1795550400000-pending-due-index';
export { MovementsFillfactor1795636800000 } from './1795636800000-movements-fillfactor';
export { QueriesHeldUntil1795723200000 } from './1795723200000-queries-held-until';
export { SubAccounts1795896000000 } from './1795896000000-sub-accounts';
export { MovementLookupIds1795982400000 } from './1795982400000-movement-lookup-ids';
export { WebhookOutbox1796068800000 } from './1796068800000-webhook-outbox';
export { ApiKeys1796155200000 } from './1796155200000-api-keys';
export { AnomalyResolutions1796241600000 } from './1796241600000-anomaly-resolutions';
export { LimitUsage1796328000000 } from './1796328000000-limit-usage';
export { AuditTrail1796414400000 } from './1796414400000-audit-trail';
export { Approvals1796500800000 } from './1796500800000-approvals';
export { Replicas1796587200000 } from './1796587200000-replicas';
export { MovementSearch1796673600000 } from './1796673600000-movement-search';
export { MovementText1796760000000 } from './1796760000000-movement-text';
export { MovementStatusAmount1796846400000 } from './1796846400000-movement-status-amount';
export { MovementAmountText1796932800000 } from './1796932800000-movement-amount-text';
export { MovementWords1797019200000 } from './1797019200000-movement-words';
export { MovementOrderCovering1797105600000 } from './1797105600000-movement-order-covering';
export { SearchOnEngineIndexes1797192000000 } from './1797192000000-search-on-engine-indexes';
export { ApiKeyMinters1797278400000 } from './1797278400000-api-key-minters';
export { AuditTrailSealed1797364800000 } from './1797364800000-audit-trail-sealed';
export { WebhookEventTraceParent1797408000000 } from './1797408000000-webhook-event-trace-parent';
export { Payees1797451200000 } from './1797451200000-payees';
export { ScheduledTransfers1797537600000 } from './1797537600000-scheduled-transfers';
export { Statements1797624000000 } from './1797624000000-statements';
export { DailyClose1797710400000 } from './1797710400000-daily-close';
export { AccountQueues1797796800000 } from './1797796800000-account-queues';
export { TextIndexWithoutPositions1797969600000 } from './1797969600000-text-index-without-positions';
export { UnknownDebits1798056000000 } from './1798056000000-unknown-debits';
export { AmountFromStatusIndex1798315200000 } from './1798315200000-amount-from-status-index';
export { StatementRowsUncheckedKeys1798660800000 } from './1798660800000-statement-rows-unchecked-keys';
export { TextIndexAtCommit1798747200000 } from './1798747200000-text-index-at-commit';

/** The steps a database made by an earlier build went through, in order; a fresh one gets their result at once. */
export const TRANSFER_MIGRATION_STEPS = [
  CreateTransferSchema1795291200000,
  AddDueTimeIndex1795377600000,
  DropNetworkIdIndex1795464000000,
  PendingDueIndex1795550400000,
  MovementsFillfactor1795636800000,
  QueriesHeldUntil1795723200000,
  SubAccounts1795896000000,
  MovementLookupIds1795982400000,
  WebhookOutbox1796068800000,
  ApiKeys1796155200000,
  AnomalyResolutions1796241600000,
  LimitUsage1796328000000,
  AuditTrail1796414400000,
  Approvals1796500800000,
  Replicas1796587200000,
  MovementSearch1796673600000,
  MovementText1796760000000,
  MovementStatusAmount1796846400000,
  MovementAmountText1796932800000,
  MovementWords1797019200000,
  MovementOrderCovering1797105600000,
  SearchOnEngineIndexes1797192000000,
  ApiKeyMinters1797278400000,
  AuditTrailSealed1797364800000,
  WebhookEventTraceParent1797408000000,
  Payees1797451200000,
];

/**
 * The steps since the baseline's schema: they run on every database, fresh (after the baseline) or made by an
 * earlier build (after the steps), until a later baseline takes them in.
 */
export const TRANSFER_MIGRATIONS_SINCE_BASELINE = [
  ScheduledTransfers1797537600000,
  Statements1797624000000,
  DailyClose1797710400000,
  AccountQueues1797796800000,
  TextIndexWithoutPositions1797969600000,
  UnknownDebits1798056000000,
  AmountFromStatusIndex1798315200000,
  StatementRowsUncheckedKeys1798660800000,
  TextIndexAtCommit1798747200000,
];

/**
 * Add these to a host's own TypeORM data source (with TRANSFER_ENTITIES); run them with runTransferMigrations. A fresh
 * database gets today's schema from TransferSchemaBaseline1795291100000 (the steps are recorded, and do nothing); a
 * database made by an earlier build goes on through the steps it has not run.
 */
export const TRANSFER_MIGRATIONS = [
  TransferSchemaBaseline1795291100000,
  ...coveredByBaseline(TRANSFER_MIGRATION_STEPS),
  ...TRANSFER_MIGRATIONS_SINCE_BASELINE,
];
