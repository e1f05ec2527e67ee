import { Logger, type LoggerService, type Provider } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ApiKeyService, AuditService } from '../access';
import { BankCallBudget, BankClient } from '../bank';
import { PollingPolicy } from '../domain';
import {
  BANK_PORT,
  createLeaseOwner,
  type EventSink,
  FailureCounts,
  InFlightWork,
  LEASE_OWNER,
  MOVEMENT_LOGGER,
  MovementEvents,
  MovementSender,
  QuerySchedule,
  ReplicaHeartbeat,
} from '../movement';
import {
  RESOLVED_TRANSFER_OPTIONS,
  type ResolvedTransferOptions,
  resolveTransferModuleOptions,
  type TransferModuleOptions,
} from '../options';
import { AuditTrail, engineAdapterFor, MovementStore, ReplicaRegistry, WebhookStore } from '../persistence';
import { SweepService } from '../sweep';
import {
  AnomalyService,
  ApprovalService,
  BankLookupService,
  BankLookups,
  CancellationService,
  DailyCloseService,
  MovementService,
  PayeeService,
  ScheduledTransferService,
  StatementService,
  SubAccountService,
  TransferOverviewService,
  TransferService,
} from '../transfer';
import { TransferEventOutbox, WebhookDispatcher, WebhookService, WebhookWakeUp } from '../webhooks';
import {
  type HostDataSource,
  openTransferDataSource,
  TRANSFER_DATA_SOURCE,
  type TransferDataSource,
} from './transfer-data-source';
import { HOST_DATA_SOURCE, TRANSFER_MODULE_OPTIONS } from './transfer-module.definition';
import { TransferResources } from './transfer-resources';

// One provider per part of giro, each injected where it is used. One instance of each per module: the
// services share one store, one bank budget, one lease owner and one record of the work in flight.

/** The options as given, validated at start-up (every message names the option), with the defaults applied. */
const resolvedOptions: Provider = {
  provide: RESOLVED_TRANSFER_OPTIONS,
  useFactory: (options: TransferModuleOptions) => resolveTransferModuleOptions(options),
  inject: [TRANSFER_MODULE_OPTIONS],
};

/** giro's database: its own from `databaseUrl`, or the host's data source; migrations checked (or run). */
const dataSource: Provider = {
  provide: TRANSFER_DATA_SOURCE,
  useFactory: (options: ResolvedTransferOptions, host: HostDataSource) => openTransferDataSource(options, host),
  inject: [RESOLVED_TRANSFER_OPTIONS, HOST_DATA_SOURCE],
};

/** The audit trail every store appends to, in the change's transaction, inside an audit scope (AuditService). */
const auditTrail: Provider = {
  provide: AuditTrail,
  useFactory: (database: TransferDataSource, options: ResolvedTransferOptions) =>
    new AuditTrail(database.dataSource, options.clock, { hmacKey: options.auditHmacKey }),
  inject: [TRANSFER_DATA_SOURCE, RESOLVED_TRANSFER_OPTIONS],
};

const auditService: Provider = {
  provide: AuditService,
  useFactory: (trail: AuditTrail, logger: LoggerService) => new AuditService(trail, logger),
  inject: [AuditTrail, MOVEMENT_LOGGER],
};

/** With webhooks, every change writes its events to the outbox in its own transaction. */
const store: Provider = {
  provide: MovementStore,
  useFactory: (
    database: TransferDataSource,
    options: ResolvedTransferOptions,
    wakeUp: WebhookWakeUp,
    audit: AuditTrail,
  ) =>
    new MovementStore(database.dataSource, options.clock, {
      outbox: options.webhooks && new TransferEventOutbox(wakeUp),
      limits: options.limits,
      audit,
    }),
  inject: [TRANSFER_DATA_SOURCE, RESOLVED_TRANSFER_OPTIONS, WebhookWakeUp, AuditTrail],
};

const webhookWakeUp: Provider = { provide: WebhookWakeUp, useFactory: () => new WebhookWakeUp() };

/** A test event committed wakes the dispatcher, as a movement's events do. */
const webhookStore: Provider = {
  provide: WebhookStore,
  useFactory: async (
    database: TransferDataSource,
    options: ResolvedTransferOptions,
    wakeUp: WebhookWakeUp,
    audit: AuditTrail,
  ) => {
    const store = new WebhookStore(database.dataSource, options.clock, {
      onEventsCommitted: () => wakeUp.notify(),
      audit,
      cipher: options.secrets,
    });
    // The migrations have run (TRANSFER_DATA_SOURCE): secrets stored in clear, before a key was given, are sealed
    // now. A migration could not: it has no key.
    if (options.secrets.keyId !== undefined) await store.sealStoredSecrets();
    return store;
  },
  inject: [TRANSFER_DATA_SOURCE, RESOLVED_TRANSFER_OPTIONS, WebhookWakeUp, AuditTrail],
};

/** Delivers the outbox once started (beside the sweep); without `webhooks`, starting it does nothing. */
const webhookDispatcher: Provider = {
  provide: WebhookDispatcher,
  useFactory: (
    webhooks: WebhookStore,
    options: ResolvedTransferOptions,
    wakeUp: WebhookWakeUp,
    owner: string,
    logger: LoggerService,
  ) => new WebhookDispatcher(webhooks, wakeUp, options.webhooks, options.clock, owner, logger),
  inject: [WebhookStore, RESOLVED_TRANSFER_OPTIONS, WebhookWakeUp, LEASE_OWNER, MOVEMENT_LOGGER],
};

const bankClient: Provider = {
  provide: BankClient,
  useFactory: (options: ResolvedTransferOptions) => new BankClient(options.bank),
  inject: [RESOLVED_TRANSFER_OPTIONS],
};

/** What the movement sender calls: the bank client. */
const bankPort: Provider = { provide: BANK_PORT, useExisting: BankClient };

/** One budget for every bank call of this module: the transfers' first sends and the sweeps' calls. */
const budget: Provider = {
  provide: BankCallBudget,
  useFactory: (options: ResolvedTransferOptions) => new BankCallBudget(options.budget),
  inject: [RESOLVED_TRANSFER_OPTIONS],
};

const schedule: Provider = {
  provide: QuerySchedule,
  useFactory: (options: ResolvedTransferOptions) => new QuerySchedule(new PollingPolicy(options.polling)),
  inject: [RESOLVED_TRANSFER_OPTIONS],
};

/** The events after each commit; none when the host did not import EventEmitterModule. */
const events: Provider = {
  provide: MovementEvents,
  useFactory: (emitter: EventSink | undefined, movements: MovementStore, logger: LoggerService) =>
    new MovementEvents(emitter, movements, logger),
  inject: [{ token: EventEmitter2, optional: true }, MovementStore, MOVEMENT_LOGGER],
};

/** The admin API's keys, on giro's data source (a key revoked anywhere is refused here within a second). */
const apiKeys: Provider = {
  provide: ApiKeyService,
  useFactory: (database: TransferDataSource, options: ResolvedTransferOptions, audit: AuditTrail) =>
    new ApiKeyService(database.dataSource, { clock: options.clock, audit }),
  inject: [TRANSFER_DATA_SOURCE, RESOLVED_TRANSFER_OPTIONS, AuditTrail],
};

/** Where replicas share the database (Postgres), they share the bank budget through their heartbeats. */
const replicaHeartbeat: Provider = {
  provide: ReplicaHeartbeat,
  useFactory: (
    database: TransferDataSource,
    options: ResolvedTransferOptions,
    budget: BankCallBudget,
    owner: string,
    logger: LoggerService,
  ) => {
    const shared = engineAdapterFor(database.dataSource).capabilities.sharedByReplicas;
    // Its own connection: a heartbeat queued behind the writers would make a busy replica look silent.
    const registry = shared
      ? new ReplicaRegistry(database.dataSource, options.clock, { ownConnection: true })
      : undefined;
    return new ReplicaHeartbeat(registry, budget, owner, logger);
  },
  inject: [TRANSFER_DATA_SOURCE, RESOLVED_TRANSFER_OPTIONS, BankCallBudget, LEASE_OWNER, MOVEMENT_LOGGER],
};

const leaseOwner: Provider = { provide: LEASE_OWNER, useFactory: createLeaseOwner };

const logger: Provider = { provide: MOVEMENT_LOGGER, useFactory: () => new Logger('giro') };

export const TRANSFER_PROVIDERS: Provider[] = [
  resolvedOptions,
  dataSource,
  webhookWakeUp,
  auditTrail,
  auditService,
  store,
  webhookStore,
  webhookDispatcher,
  WebhookService,
  bankClient,
  bankPort,
  budget,
  replicaHeartbeat,
  schedule,
  FailureCounts,
  events,
  leaseOwner,
  InFlightWork,
  logger,
  MovementSender,
  BankLookups,
  TransferService,
  MovementService,
  BankLookupService,
  CancellationService,
  TransferOverviewService,
  DailyCloseService,
  SubAccountService,
  PayeeService,
  StatementService,
  AnomalyService,
  ApprovalService,
  ScheduledTransferService,
  apiKeys,
  SweepService,
  TransferResources,
];
