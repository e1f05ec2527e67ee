import type { DataSource } from 'typeorm';
import {
  businessDayOf,
  type Clock,
  type DecimalAmount,
  type LimitRefusal,
  type MovementStatus,
  type SourceAccountLimits,
  type TransferIntent,
} from '../domain';
import type { AuditTrail } from './audit-trail';
import { type AccountCloseFigures, DailyClose, type DailyCloseQuery } from './daily-close';
import type { WakeUpTimes } from './engine/due-claim';
import { LimitUsage, type LimitUsageRecord } from './limit-usage';
import { type AnomalyListRecord, MovementAnomalies } from './movement-anomalies';
import { type ApprovalDecision, type ApprovalOutcome, MovementApprovals } from './movement-approvals';
import { MovementCancellations } from './movement-cancellations';
import { MovementIntents } from './movement-intents';
import { MovementLeases } from './movement-leases';
import { MovementListing, type ScheduledTotalsOptions } from './movement-listing';
import { MovementQueryHolds, type UnleasedQuery } from './movement-query-holds';
import type {
  AnomalyRecord,
  CancellationRecord,
  ClaimedMovement,
  MovementDetails,
  RecordedActor,
} from './movement-records';
import { MovementSchedule, type ScheduleOutcome } from './movement-schedule';
import { MovementUpdates } from './movement-updates';
import type { Outbox } from './outbox';
import { PayeeBook, type PayeeEntry, type PayeeGate, type PayeeRecord, type PayeeSearchOptions } from './payee-book';
import { StatementBook, type StatementImportRequest } from './statement-book';
import type { StatementImportRecord, StatementLineInput, StatementReport } from './statement-records';
import { StoreContext } from './store-context';
import type {
  ApplyUpdateResult,
  CancellationAcknowledgement,
  ClaimDueOptions,
  ListAnomaliesOptions,
  ListCancellationsOptions,
  ListMovementsOptions,
  MovementPage,
  MovementUpdate,
  RecordIntentOptions,
  RecordIntentResult,
} from './store-types';
import { type SubAccountRecord, type SubAccountRegistration, SubAccountRegistry } from './sub-account-registry';
import type { UnknownDebitRecord } from './unknown-debits';

export interface MovementStoreOptions {
  /** OriginIds taken per allocator commit and handed out from memory (default DEFAULT_ORIGIN_ID_BLOCK_SIZE). */
  originIdBlockSize?: number;
  /** Where the changes write their events, in their own transactions (webhooks); none by default. */
  outbox?: Outbox;
  /**
   * The limits per source account (none by default): a new intent takes its share of its account's day in its
   * own transaction, or is refused (LimitExceededError); a change to FAILED gives the share back.
   */
  limits?: SourceAccountLimits;
  /**
   * The audit trail: a change made inside an audit scope (AuditService.runAs, the admin API) appends its row in the
   * change's own transaction. None by default: nothing is audited.
   */
  audit?: AuditTrail;
}

/**
 * Everything the services persist about movements. Every method is one transaction. A lease (owner +
 * expiry) gives one worker a movement at a time; every write of a leased movement is fenced: it happens only
 * while the caller's lease is unexpired, so a worker that stalled past its lease writes nothing.
 *
 * The work is done by one class per concern, on a shared StoreContext; each method here hands its call to
 * the class that documents it.
 */
export class MovementStore {
  private readonly intents: MovementIntents;
  private readonly leases: MovementLeases;
  private readonly updates: MovementUpdates;
  private readonly listing: MovementListing;
  private readonly holds: MovementQueryHolds;
  private readonly cancellations: MovementCancellations;
  private readonly anomalies: MovementAnomalies;
  private readonly subAccounts: SubAccountRegistry;
  private readonly usage: LimitUsage;
  private readonly approvals: MovementApprovals;
  private readonly payees: PayeeBook;
  private readonly schedule: MovementSchedule;
  private readonly close: DailyClose;
  private readonly statements: StatementBook;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    options: MovementStoreOptions = {},
  ) {
    const context = new StoreContext(dataSource, clock, options.outbox, options.audit);
    this.usage = new LimitUsage(context, options.limits?.isEmpty() ? undefined : options.limits);
    this.intents = new MovementIntents(context, { originIdBlockSize: options.originIdBlockSize, usage: this.usage });
    this.leases = new MovementLeases(context);
    this.payees = new PayeeBook(context);
    this.updates = new MovementUpdates(context, this.usage, this.payees);
    this.listing = new MovementListing(context);
    this.holds = new MovementQueryHolds(context);
    this.cancellations = new MovementCancellations(context);
    this.anomalies = new MovementAnomalies(context);
    this.subAccounts = new SubAccountRegistry(context);
    this.approvals = new MovementApprovals(context, this.usage, this.payees);
    this.schedule = new MovementSchedule(context, this.usage);
    this.close = new DailyClose(context);
    this.statements = new StatementBook(context);
  }

  // Intents (movement-intents.ts)

  allocateOriginIds(count: number): Promise<number[]> {
    return this.intents.allocateOriginIds(count);
  }

  recordIntent(intent: TransferIntent, fingerprint: string, options: RecordIntentOptions): Promise<RecordIntentResult> {
    return this.intents.recordIntent(intent, fingerprint, options);
  }

  // Approvals (movement-approvals.ts)

  decideApproval(originId: number, decision: ApprovalDecision): Promise<ApprovalOutcome> {
    return this.approvals.decide(originId, decision);
  }

  expireApprovals(limit: number): Promise<ApprovalOutcome[]> {
    return this.approvals.expireDue(limit);
  }

  nextApprovalExpiryAt(): Promise<Date | null> {
    return this.approvals.nextExpiryAt();
  }

  // The payee book (payee-book.ts)

  /** Whether transfers to `address` are refused (blocked), and whether it was paid or approved before. */
  payeeGate(address: string): Promise<PayeeGate> {
    return this.payees.gate(address);
  }

  findPayee(address: string): Promise<PayeeRecord | null> {
    return this.payees.find(address);
  }

  searchPayees(options: PayeeSearchOptions): Promise<MovementPage<PayeeRecord>> {
    return this.payees.search(options);
  }

  addPayee(entry: PayeeEntry): Promise<PayeeRecord> {
    return this.payees.add(entry);
  }

  setPayeeBlocked(address: string, blocked: boolean, by: RecordedActor): Promise<PayeeRecord> {
    return this.payees.setBlocked(address, blocked, by);
  }

  // Scheduled transfers (movement-schedule.ts)

  nextReleaseAt(): Promise<Date | null> {
    return this.schedule.nextReleaseAt();
  }

  cancelScheduled(originId: number, by: RecordedActor | null): Promise<ScheduleOutcome> {
    return this.schedule.cancel(originId, by);
  }

  // Leases and claims (movement-leases.ts)

  claimDue(options: ClaimDueOptions): Promise<ClaimedMovement[]> {
    return this.leases.claimDue(options);
  }

  nextDueAt(): Promise<Date | null> {
    return this.leases.nextDueAt();
  }

  wakeUpTimes(creations = true): Promise<WakeUpTimes> {
    return this.leases.wakeUpTimes(creations);
  }

  claim(originId: number, owner: string, leaseMs: number): Promise<ClaimedMovement | null> {
    return this.leases.claim(originId, owner, leaseMs);
  }

  markSendAttempt(originId: number, owner: string): Promise<boolean> {
    return this.leases.markSendAttempt(originId, owner);
  }

  releaseLease(originId: number, owner: string): Promise<boolean> {
    return this.leases.releaseLease(originId, owner);
  }

  releaseAllLeases(owner: string): Promise<number> {
    return this.leases.releaseAllLeases(owner);
  }

  // Fenced updates (movement-updates.ts)

  applyUpdate(originId: number, owner: string, update: MovementUpdate): Promise<ApplyUpdateResult> {
    return this.updates.applyUpdate(originId, owner, update);
  }

  // Reads and counts (movement-listing.ts)

  findByOriginId(originId: number): Promise<MovementDetails | null> {
    return this.listing.findByOriginId(originId);
  }

  findManyByOriginIds(originIds: readonly number[]): Promise<MovementDetails[]> {
    return this.listing.findManyByOriginIds(originIds);
  }

  list(options: ListMovementsOptions): Promise<MovementPage> {
    return this.listing.list(options);
  }

  listDetails(options: ListMovementsOptions): Promise<MovementPage<MovementDetails>> {
    return this.listing.listDetails(options);
  }

  // A query made without the lease (movement-query-holds.ts)

  recordUnleasedQuery(originId: number, query: UnleasedQuery): Promise<boolean> {
    return this.holds.recordUnleasedQuery(originId, query);
  }

  countDue(now?: Date): Promise<number> {
    return this.listing.countDue(now);
  }

  countByStatus(): Promise<Record<MovementStatus, number>> {
    return this.listing.countByStatus();
  }

  oldestNonFinalCreatedAt(): Promise<Date | null> {
    return this.listing.oldestNonFinalCreatedAt();
  }

  oldestNonFinal(): ReturnType<MovementListing['oldestNonFinal']> {
    return this.listing.oldestNonFinal();
  }

  completedTotals(from: Date, before: Date): ReturnType<MovementListing['completedTotals']> {
    return this.listing.completedTotals(from, before);
  }

  scheduledTotals(from: Date, before: Date): ReturnType<MovementListing['scheduledTotals']> {
    return this.listing.scheduledTotals(from, before);
  }

  scheduledTotalsByDay(
    filter: ScheduledTotalsOptions,
    limit: number,
  ): ReturnType<MovementListing['scheduledTotalsByDay']> {
    return this.listing.scheduledTotalsByDay(filter, limit);
  }

  // The daily close (daily-close.ts)

  dailyCloseFigures(query: DailyCloseQuery): Promise<AccountCloseFigures[]> {
    return this.close.figures(query);
  }

  lastClosedDay(): Promise<string | null> {
    return this.close.lastClosed();
  }

  isDayClosed(day: string): Promise<boolean> {
    return this.close.isClosed(day);
  }

  closeDay(day: string, query: DailyCloseQuery): Promise<boolean> {
    return this.close.close(day, query);
  }

  // Cancellations (movement-cancellations.ts)

  listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationRecord[]> {
    return this.cancellations.listCancellations(filter);
  }

  listCancellationPage(options: ListCancellationsOptions): Promise<MovementPage<CancellationRecord>> {
    return this.cancellations.listCancellationPage(options);
  }

  acknowledgeCancellation(
    originId: number,
    acknowledgement?: CancellationAcknowledgement,
  ): Promise<CancellationRecord> {
    return this.cancellations.acknowledgeCancellation(originId, acknowledgement);
  }

  countUnacknowledgedCancellations(): Promise<number> {
    return this.cancellations.countUnacknowledgedCancellations();
  }

  // Anomalies and their resolutions (movement-anomalies.ts)

  listAnomalies(options: ListAnomaliesOptions): Promise<MovementPage<AnomalyListRecord>> {
    return this.anomalies.listAnomalies(options);
  }

  resolveAnomaly(id: number, resolution: { note: string; by: RecordedActor }): Promise<AnomalyRecord> {
    return this.anomalies.resolveAnomaly(id, resolution);
  }

  resolveUnknownDebit(id: number, resolution: { note: string; by: RecordedActor }): Promise<UnknownDebitRecord> {
    return this.anomalies.resolveUnknownDebit(id, resolution);
  }

  countUnresolvedAnomalies(): Promise<number> {
    return this.anomalies.countUnresolvedAnomalies();
  }

  // Limits per source account (limit-usage.ts)

  /** What each source account has used of `day` (default: today in Buenos Aires, by the store's clock). */
  limitUsageOn(day?: string): Promise<LimitUsageRecord[]> {
    return this.usage.usageOn(day ?? businessDayOf(this.clock.now()));
  }

  /**
   * What the limits would refuse of new intents from these accounts, requested in this order, each counted on its
   * `day` (a scheduled one's execution day) or else today (by the store's clock): LimitUsage.preview. Reads only.
   */
  previewLimits(
    shares: { address: string; amount: DecimalAmount; day?: string }[],
  ): Promise<(LimitRefusal | undefined)[]> {
    return this.usage.preview(shares, businessDayOf(this.clock.now()));
  }

  // Client sub-accounts of PSP mode (sub-account-registry.ts): here for the transactions they share on SQLite.

  registerSubAccount(registration: SubAccountRegistration): Promise<SubAccountRecord> {
    return this.subAccounts.register(registration);
  }

  listSubAccounts(): Promise<SubAccountRecord[]> {
    return this.subAccounts.list();
  }

  findSubAccount(address: string): Promise<SubAccountRecord | null> {
    return this.subAccounts.find(address);
  }

  disableSubAccount(address: string): Promise<SubAccountRecord> {
    return this.subAccounts.disable(address);
  }

  // Statements (statement-book.ts)

  importStatement(
    request: StatementImportRequest,
    batches: AsyncIterable<StatementLineInput[]>,
  ): Promise<StatementReport> {
    return this.statements.importStatement(request, batches);
  }

  findStatementImport(account: string, sha256: string): Promise<StatementReport | null> {
    return this.statements.findImport(account, sha256);
  }

  getStatementImport(id: string): Promise<StatementReport | null> {
    return this.statements.getImport(id);
  }

  listStatementImports(options: { limit: number; after?: string }): Promise<MovementPage<StatementImportRecord>> {
    return this.statements.listImports(options);
  }
}
