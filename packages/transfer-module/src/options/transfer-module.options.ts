import {
  BankCallBudget,
  type BankCallBudgetOptions,
  type BankClientOptions,
  BankOptionsError,
  resolveBankClientOptions,
  Secret,
} from '../bank';
import {
  type ApprovalOptions,
  ApprovalPolicy,
  type Clock,
  DEFAULT_POLLING_OPTIONS,
  explainSourceAccounts,
  indexSourceAccounts,
  isValidCbuCvu,
  type NonBusinessDayPolicy,
  PollingPolicy,
  type PollingPolicyOptions,
  parseAmount,
  type ScheduleRules,
  type SourceAccount,
  type SourceAccountIndex,
  SourceAccountLimits,
  type SourceAccountLimitsOptions,
  scheduleRulesOf,
  systemClock,
  type TransferIntentRules,
  transferLimitsOf,
} from '../domain';
import { CLEAR_SECRETS, dataSourceOptionsFromUrl, encryptionKeyFrom, SecretCipher } from '../persistence';
import { checkBoolean, checkDeclaredInteger, checkObject, fail } from './option-checks';
import {
  ACCOUNT_WEIGHT,
  POLLING_OPTIONS,
  SCHEDULE_OPTIONS,
  SWEEP_OPTIONS,
  TRANSFER_MODULE_OPTIONS,
} from './option-declarations';
import { TransferModuleOptionsError } from './transfer-module-options.error';
import { type ResolvedWebhookOptions, resolveWebhookOptions, type TransferWebhookOptions } from './webhook-options';

export { TransferModuleOptionsError } from './transfer-module-options.error';

export interface TransferSweepOptions {
  /** Movements claimed per batch (default 100, at most 1000). */
  batchSize?: number;
  /** Movements worked on at once within a sweep (default 8). Bank calls are bounded by `budget` as well. */
  concurrency?: number;
  /**
   * How long a worker owns a claimed movement (default twice the minimum). Must exceed the longest bank call
   * (the sum of `bank.timeouts`) plus `polling.minIntervalMs`.
   */
  leaseMs?: number;
  /**
   * Source accounts' weights in the bank's fair share (default: 1 each): when the creations of several accounts wait
   * for the same budget, each batch takes them round by round, `weight` of an account's a round (a whole number
   * from 1 to 100), so one account's backlog never holds another's transfer back.
   */
  accountWeights?: Record<string, number>;
}

/** Scheduled transfers (`executeOn`, `executeAt`): Argentina's bank calendar and when a day's transfers go. */
export interface TransferScheduleOptions {
  /** Days the banks close beyond the national holidays (`YYYY-MM-DD`), e.g. a bank's own closing (default none). */
  extraHolidays?: string[];
  /**
   * An `executeOn` that is a weekend or a holiday: `next` business day (default `next`), the `previous` one, or
   * `refuse` (SCHEDULE_REFUSED, 422, naming the next business day).
   */
  nonBusinessDayPolicy?: NonBusinessDayPolicy;
  /** The time of day (Buenos Aires, `HH:MM`) an `executeOn` day's transfers are released at (default `09:00`). */
  releaseTime?: string;
  /**
   * The hours the bank takes transfers, `HH:MM-HH:MM` in Buenos Aires (`08:00-20:00`), on business days only
   * (default: any time). Outside them nothing is sent: new and released transfers wait for the opening.
   */
  bankOperatingHours?: string;
}

/** The polling rule: the domain's PollingPolicy options, and whether intervals below the bank's are accepted. */
export interface TransferPollingOptions extends PollingPolicyOptions {
  /**
   * Accept `minIntervalMs` below the bank's 5 s or `delayedMinIntervalMs` below its 10 minutes
   * (docs/bank-api.md#states-and-polling): for the sandbox bank, tests, or a test bank that agreed to it.
   * Default false: such intervals are refused at start-up, so a real bank is never polled faster than it allows.
   */
  allowBelowSpec?: boolean;
}

export interface TransferModuleOptions {
  /** The bank client: base URL, mutual TLS, token, HMAC, timeouts… (messages name `bank.*`). */
  bank: BankClientOptions;
  /**
   * The module's own database: `sqlite:<file path>` or `postgres://…`. Omit it to use the host's TypeORM
   * data source (the default one, or the one named by `dataSourceName`), which must list TRANSFER_ENTITIES
   * and TRANSFER_MIGRATIONS.
   */
  databaseUrl?: string;
  /**
   * With a Postgres `databaseUrl`: how long the start-up waits while the server cannot be reached yet (refused,
   * starting up), trying again with growing pauses; 0 fails at once. Default 60000 ms (a minute).
   */
  databaseStartTimeoutMs?: number;
  /**
   * With a Postgres `databaseUrl`: the connections of the module's pool (default 10, 1 to 200). The commits of
   * the connections committing at once share one flush of the server's WAL. Not applicable to SQLite.
   */
  databasePoolSize?: number;
  /** Run giro's pending migrations at start-up (default false: run them with runTransferMigrations). */
  runMigrations?: boolean;
  /**
   * The polling rule (default: the bank's, docs/bank-api.md#states-and-polling); lower only with
   * `allowBelowSpec`, for tests and demos.
   */
  polling?: TransferPollingOptions;
  /** One budget for every bank call of this process (default `{ maxInFlight: 8 }`, no rate limit). */
  budget?: BankCallBudgetOptions;
  /** How a sweep claims and works through the due movements (each field has its default). */
  sweep?: TransferSweepOptions;
  /**
   * Limits of a transfer request the bank leaves open: maximum amount, description length, accepted currencies
   * (default `['032']`) and concept codes (default CONCEPT_CODES, which must include VAR).
   */
  transferRules?: TransferIntentRules;
  /**
   * The entity's own accounts, the only ones a transfer may be sent from: a `from` not among them, or with
   * another holder, is refused (400 naming `from.address` or `from.owner.personId`), nothing stored or sent.
   * Omitted: `from` is not checked (the host checks it). At least one when given.
   */
  sourceAccounts?: SourceAccount[];
  /**
   * PSP mode (default false): the entity is a payment service provider registered with the central bank and may
   * also send from its clients' virtual sub-accounts (CVU) it registers (SubAccountService); with
   * `sourceAccounts`, a `from` that is not one of them must then be such a sub-account, enabled, of that holder.
   */
  psp?: boolean;
  /**
   * Limits per source account (default none): `default` for every account, `accounts` by address (CBU/CVU) for
   * some, each `{ perTransfer?, dailyAmount?, dailyCount? }` — amounts as decimal strings (`"50000.00"`), days
   * calendar days of Buenos Aires. An account's entry takes the default's limits it leaves out; `null` there is
   * no such limit for it. A transfer that would pass one is refused (TransferLimitError, 422), nothing stored or
   * sent; the daily ones are kept atomically in the intent's transaction, across replicas.
   */
  limits?: SourceAccountLimitsOptions;
  /**
   * Approvals, maker–checker (default none): a transfer of more than `requiredAbove` (a decimal string; `0`: every
   * transfer) is stored AWAITING_APPROVAL, its originId and its share of the limits taken, and never sent until
   * an approver other than its creator approves it (ApprovalService); rejected, or not approved within
   * `expiresAfterMs` (default 24 h), it ends REJECTED, never sent.
   */
  approvals?: ApprovalOptions;
  /**
   * The secret the audit trail's hashes are keyed with (HMAC-SHA256), at least 32 characters, kept outside the
   * database (default none: plain sha-256, which anyone who can write the database can recompute after rewriting
   * a row). Rows written before it was set stay verifiable; changing it makes the rows written with the old one
   * unverifiable.
   */
  auditHmacKey?: string;
  /**
   * First payments held (default false): a transfer to an account with no completed transfer and not approved as
   * a payee waits AWAITING_APPROVAL whatever its amount; approving it approves the payee (PayeeService).
   */
  newPayeeRequiresApproval?: boolean;
  /**
   * Business days (Argentine calendar, default 2) after the day a transfer was COMPLETED before an imported statement
   * covering that day without it raises `missing_in_statement`.
   */
  statementGraceDays?: number;
  /**
   * Scheduled transfers (default: the national calendar, `next`, `09:00`): a transfer asked with `executeOn` or
   * `executeAt` is stored SCHEDULED, checked, and never sent before its moment.
   */
  schedule?: TransferScheduleOptions;
  /**
   * Webhooks (default none): every change writes its events to an outbox in its own transaction, and a
   * WebhookDispatcher delivers them, signed (Standard Webhooks), to the endpoints WebhookService registers.
   */
  webhooks?: TransferWebhookOptions;
  /**
   * The key the secrets giro stores (webhook signing secrets) are encrypted with, AES-256-GCM: base64 of 32 bytes
   * (`openssl rand -base64 32`), as a string or a `Secret`. Default none: they are stored in clear. Given, the
   * secrets stored in clear are encrypted at start.
   */
  encryptionKey?: string | Secret;
  /** The source of "now" (default the system clock); also the bank client's, unless `bank.clock` is set. */
  clock?: Clock;
}

/** Chosen beside `useFactory` in forRootAsync (it decides which provider is injected), or in forRoot's options. */
export interface TransferModuleExtras {
  /** The host's named TypeORM data source to use (default: its default data source). */
  dataSourceName?: string;
  /** Make TransferService and SweepService injectable in every module of the application (default false). */
  isGlobal?: boolean;
}

export interface ResolvedTransferOptions {
  bank: BankClientOptions;
  databaseUrl?: string;
  databaseStartTimeoutMs: number;
  databasePoolSize: number;
  runMigrations: boolean;
  polling: PollingPolicyOptions;
  budget: BankCallBudgetOptions;
  sweep: Required<TransferSweepOptions>;
  transferRules: TransferIntentRules;
  /** The source accounts by address; undefined when `from` is not checked. */
  sourceAccounts: SourceAccountIndex | undefined;
  psp: boolean;
  /** Undefined when no limit is configured (then nothing is checked or counted). */
  limits: SourceAccountLimits | undefined;
  /** Undefined when no transfer waits for an approval. */
  approvals: ApprovalPolicy | undefined;
  /** Undefined when the audit trail is hashed without a key. */
  auditHmacKey: string | undefined;
  newPayeeRequiresApproval: boolean;
  statementGraceDays: number;
  schedule: ScheduleRules;
  /** Undefined when webhooks are off. */
  webhooks: ResolvedWebhookOptions | undefined;
  /** Seals the secrets giro stores with `encryptionKey` (CLEAR_SECRETS without one). */
  secrets: SecretCipher;
  clock: Clock;
  /**
   * A bank call starts only while the lease has at least this long left: the longest call plus the polling
   * interval. So if a worker dies with an answer unrecorded, whoever claims the movement after the lease
   * expires asks no sooner than the polling rule allows after that answer.
   */
  callGuardMs: number;
}

/** Injection token of the ResolvedTransferOptions. */
export const RESOLVED_TRANSFER_OPTIONS = Symbol('giro:ResolvedTransferOptions');

const OPTION_KEYS = Object.keys(TRANSFER_MODULE_OPTIONS);
const SWEEP_KEYS = Object.keys(SWEEP_OPTIONS);
const SCHEDULE_KEYS = Object.keys(SCHEDULE_OPTIONS);
const TRANSFER_RULE_KEYS = ['maxAmount', 'maxDescriptionLength', 'currencies', 'concepts'] as const;
/** The sweep's declared defaults (option-declarations.ts). */
export const SWEEP_DEFAULTS = {
  batchSize: SWEEP_OPTIONS.batchSize.default,
  concurrency: SWEEP_OPTIONS.concurrency.default,
} as const;
/** The budget's declared default (option-declarations.ts). */
export const BUDGET_DEFAULTS: Readonly<BankCallBudgetOptions> = TRANSFER_MODULE_OPTIONS.budget.default;

/** Validates the options at start-up (every message names the option) and applies the defaults. */
export function resolveTransferModuleOptions(options: TransferModuleOptions): ResolvedTransferOptions {
  const input = checkObject(options, 'options');
  for (const key of Object.keys(input)) {
    if (key === 'dataSourceName' || key === 'isGlobal') {
      fail(key, 'must be given to forRootAsync beside useFactory, not returned by the factory');
    }
    if (!OPTION_KEYS.includes(key)) fail(key, `is not an option (known: ${OPTION_KEYS.join(', ')})`);
  }
  const clock = input.clock ?? systemClock;
  if (typeof (clock as Clock).now !== 'function') fail('clock', 'must have a now() method');
  if (input.bank === undefined) fail('bank', 'is required (the bank client options)');
  const bank = {
    ...checkObject(input.bank, 'bank'),
    clock: (input.bank as BankClientOptions).clock ?? clock,
  } as BankClientOptions;
  const timeouts = resolveBank(bank).timeouts;
  const { policy: polling, options: pollingOptions } = resolvePolling(input.polling);
  const callGuardMs = timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs + polling.minIntervalMs;
  const sourceAccounts = resolveSourceAccounts(input.sourceAccounts);
  const psp = checkBoolean(input.psp, 'psp', TRANSFER_MODULE_OPTIONS.psp.default);
  return {
    bank,
    ...(input.databaseUrl !== undefined && { databaseUrl: resolveDatabaseUrl(input.databaseUrl) }),
    databaseStartTimeoutMs: checkDeclaredInteger(
      input.databaseStartTimeoutMs,
      'databaseStartTimeoutMs',
      TRANSFER_MODULE_OPTIONS.databaseStartTimeoutMs,
    ),
    databasePoolSize: checkDeclaredInteger(
      input.databasePoolSize,
      'databasePoolSize',
      TRANSFER_MODULE_OPTIONS.databasePoolSize,
    ),
    runMigrations: checkBoolean(input.runMigrations, 'runMigrations', TRANSFER_MODULE_OPTIONS.runMigrations.default),
    polling: pollingOptions,
    budget: resolveBudget(input.budget),
    sweep: resolveSweep(input.sweep, callGuardMs),
    transferRules: resolveTransferRules(input.transferRules),
    sourceAccounts,
    psp,
    limits: resolveLimits(input.limits, sourceAccounts, psp),
    approvals: resolveApprovals(input.approvals),
    auditHmacKey: resolveAuditHmacKey(input.auditHmacKey),
    newPayeeRequiresApproval: checkBoolean(
      input.newPayeeRequiresApproval,
      'newPayeeRequiresApproval',
      TRANSFER_MODULE_OPTIONS.newPayeeRequiresApproval.default,
    ),
    statementGraceDays: checkDeclaredInteger(
      input.statementGraceDays,
      'statementGraceDays',
      TRANSFER_MODULE_OPTIONS.statementGraceDays,
    ),
    schedule: resolveSchedule(input.schedule),
    webhooks: resolveWebhookOptions(input.webhooks),
    secrets: resolveEncryptionKey(input.encryptionKey),
    clock: clock as Clock,
    callGuardMs,
  };
}

/** The shortest audit key accepted: 32 characters, as many bytes of key as a sha-256 block's half at least. */
export const MIN_AUDIT_HMAC_KEY_LENGTH = 32;

function resolveAuditHmacKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < MIN_AUDIT_HMAC_KEY_LENGTH) {
    fail('auditHmacKey', `must be a string of at least ${MIN_AUDIT_HMAC_KEY_LENGTH} characters`);
  }
  return value;
}

function resolveEncryptionKey(value: unknown): SecretCipher {
  if (value === undefined) return CLEAR_SECRETS;
  const text = value instanceof Secret ? value.reveal() : value;
  const key = typeof text === 'string' ? encryptionKeyFrom(text) : undefined;
  if (key === undefined) fail('encryptionKey', 'must be base64 of 32 bytes (openssl rand -base64 32)');
  return new SecretCipher(key);
}

function resolveBank(bank: BankClientOptions) {
  try {
    return resolveBankClientOptions(bank);
  } catch (error) {
    // Its messages already name the option (`bank.baseUrl must be an https URL`).
    if (error instanceof BankOptionsError) throw new TransferModuleOptionsError(error.message);
    throw error;
  }
}

function resolvePolling(value: unknown): { policy: PollingPolicy; options: PollingPolicyOptions } {
  const { allowBelowSpec, ...options } = (
    value === undefined ? {} : checkObject(value, 'polling')
  ) as TransferPollingOptions;
  const allowed = checkBoolean(allowBelowSpec, 'polling.allowBelowSpec', POLLING_OPTIONS.allowBelowSpec.default);
  let policy: PollingPolicy;
  try {
    policy = new PollingPolicy(options);
  } catch (error) {
    // "PollingPolicy option "minIntervalMs" must be …"
    throw new TransferModuleOptionsError(`polling: ${(error as Error).message}`);
  }
  if (!allowed) {
    const { minIntervalMs, delayedMinIntervalMs } = DEFAULT_POLLING_OPTIONS;
    if (policy.minIntervalMs < minIntervalMs)
      fail('polling.minIntervalMs', belowSpec(policy.minIntervalMs, minIntervalMs));
    if (policy.delayedMinIntervalMs < delayedMinIntervalMs) {
      fail('polling.delayedMinIntervalMs', belowSpec(policy.delayedMinIntervalMs, delayedMinIntervalMs));
    }
  }
  return { policy, options };
}

function belowSpec(value: number, minimum: number): string {
  return `is ${value} ms, below the bank's minimum of ${minimum} ms (docs/bank-api.md#states-and-polling); set polling.allowBelowSpec: true only for the sandbox, tests, or a test bank that agreed to it`;
}

function resolveBudget(value: unknown): BankCallBudgetOptions {
  if (value === undefined) return { ...BUDGET_DEFAULTS };
  const budget = checkObject(value, 'budget') as unknown as BankCallBudgetOptions;
  try {
    new BankCallBudget(budget);
  } catch (error) {
    // "maxInFlight must be a whole number ≥ 1, got 0"
    throw new TransferModuleOptionsError(`budget.${(error as Error).message}`);
  }
  return budget;
}

function resolveSweep(value: unknown, callGuardMs: number): Required<TransferSweepOptions> {
  const sweep = value === undefined ? {} : checkObject(value, 'sweep');
  for (const key of Object.keys(sweep)) {
    if (!SWEEP_KEYS.includes(key)) fail(`sweep.${key}`, `is not an option (known: ${SWEEP_KEYS.join(', ')})`);
  }
  const leaseMs = checkDeclaredInteger(sweep.leaseMs, 'sweep.leaseMs', SWEEP_OPTIONS.leaseMs, 2 * callGuardMs);
  if (leaseMs <= callGuardMs) {
    fail(
      'sweep.leaseMs',
      `must exceed the longest bank call plus polling.minIntervalMs (${callGuardMs} ms), got ${leaseMs}: a shorter lease would let another worker query too soon after an answer this one never recorded`,
    );
  }
  return {
    batchSize: checkDeclaredInteger(sweep.batchSize, 'sweep.batchSize', SWEEP_OPTIONS.batchSize),
    concurrency: checkDeclaredInteger(sweep.concurrency, 'sweep.concurrency', SWEEP_OPTIONS.concurrency),
    leaseMs,
    accountWeights: resolveAccountWeights(sweep.accountWeights),
  };
}

function resolveAccountWeights(value: unknown): Record<string, number> {
  if (value === undefined) return {};
  const weights = checkObject(value, 'sweep.accountWeights');
  for (const [address, weight] of Object.entries(weights)) {
    if (!isValidCbuCvu(address)) fail(`sweep.accountWeights.${address}`, 'is not a valid CBU/CVU');
    if (weight === undefined) fail(`sweep.accountWeights.${address}`, 'must be a whole number from 1 to 100');
    checkDeclaredInteger(weight, `sweep.accountWeights.${address}`, ACCOUNT_WEIGHT);
  }
  return { ...weights } as Record<string, number>;
}

function resolveTransferRules(value: unknown): TransferIntentRules {
  if (value === undefined) return {};
  const rules = checkObject(value, 'transferRules');
  for (const key of Object.keys(rules)) {
    if (!(TRANSFER_RULE_KEYS as readonly string[]).includes(key))
      fail(`transferRules.${key}`, `is not an option (known: ${TRANSFER_RULE_KEYS.join(', ')})`);
  }
  try {
    transferLimitsOf(rules); // throws for a bad description length, currency or concept list
    parseAmount('1', { max: rules.maxAmount as string | undefined }); // throws for a bad maxAmount
  } catch (error) {
    // `transfer rule "currencies" item 1 must be …` / `amount rule "max" must be …`
    throw new TransferModuleOptionsError(`transferRules: ${(error as Error).message}`);
  }
  return rules as TransferIntentRules;
}

function resolveSourceAccounts(value: unknown): SourceAccountIndex | undefined {
  if (value === undefined) return undefined;
  const problem = explainSourceAccounts(value);
  // "sourceAccounts[1].address …" or "sourceAccounts must be a list …"
  if (problem !== undefined)
    throw new TransferModuleOptionsError(`sourceAccounts${problem.startsWith('[') ? '' : ' '}${problem}`);
  if ((value as SourceAccount[]).length === 0)
    fail('sourceAccounts', 'must name at least one account (omit it not to check `from`)');
  return indexSourceAccounts(value as SourceAccount[]);
}

function resolveApprovals(value: unknown): ApprovalPolicy | undefined {
  if (value === undefined) return undefined;
  try {
    return ApprovalPolicy.from(value);
  } catch (error) {
    const message = (error as Error).message;
    // "approvals.requiredAbove must be an amount ≥ 0 …" / "approvals must be an object …"
    throw new TransferModuleOptionsError(message.startsWith('approvals ') ? message : `approvals.${message}`);
  }
}

function resolveSchedule(value: unknown): ScheduleRules {
  const schedule = (value === undefined ? {} : checkObject(value, 'schedule')) as TransferScheduleOptions;
  for (const key of Object.keys(schedule)) {
    if (!SCHEDULE_KEYS.includes(key)) fail(`schedule.${key}`, `is not an option (known: ${SCHEDULE_KEYS.join(', ')})`);
  }
  if (schedule.extraHolidays !== undefined && !Array.isArray(schedule.extraHolidays)) {
    fail('schedule.extraHolidays', 'must be a list of days YYYY-MM-DD');
  }
  try {
    return scheduleRulesOf(schedule);
  } catch (error) {
    // "releaseTime must be a time of day HH:MM …"
    throw new TransferModuleOptionsError(`schedule.${(error as Error).message}`);
  }
}

function resolveLimits(
  value: unknown,
  sourceAccounts: SourceAccountIndex | undefined,
  psp: boolean,
): SourceAccountLimits | undefined {
  if (value === undefined) return undefined;
  let limits: SourceAccountLimits;
  try {
    limits = SourceAccountLimits.from(value);
  } catch (error) {
    // "limits.default.dailyAmount must be greater than 0, got "0"" / "limits must be an object"
    const message = (error as Error).message;
    throw new TransferModuleOptionsError(message.startsWith('limits ') ? message : `limits.${message}`);
  }
  // Outside PSP mode only the source accounts send: a limit for another address is a mistake (a typo), not a rule.
  if (sourceAccounts !== undefined && !psp) {
    const unknown = limits.addresses().find((address) => !sourceAccounts.has(address));
    if (unknown !== undefined) fail(`limits.accounts.${unknown}`, 'is not one of sourceAccounts');
  }
  return limits.isEmpty() ? undefined : limits;
}

function resolveDatabaseUrl(value: unknown): string {
  if (typeof value !== 'string') fail('databaseUrl', 'must be a string (sqlite:<file path> or postgres://…)');
  try {
    dataSourceOptionsFromUrl(value);
  } catch (error) {
    throw new TransferModuleOptionsError(`databaseUrl: ${(error as Error).message}`);
  }
  return value;
}
