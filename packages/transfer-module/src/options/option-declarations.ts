import type { BankCallBudgetOptions } from '../bank';
import { DEFAULT_POLLING_OPTIONS } from '../domain';
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_DATABASE_START_TIMEOUT_MS, MAX_BATCH_SIZE } from '../persistence';
import type {
  TransferModuleOptions,
  TransferPollingOptions,
  TransferScheduleOptions,
  TransferSweepOptions,
} from './transfer-module.options';
import type { TransferWebhookOptions } from './webhook-options';

// Every option of TransferModule, declared once, the way graphile-worker declares its options: the default an
// omitted option takes (resolveTransferModuleOptions reads it from here), the bounds a number keeps to, and the
// line of the README's list (option-list.ts makes it; option-list.spec.ts fails while the README's copy is stale
// or an option's TSDoc says another default).

export interface OptionDeclaration<T> {
  /** One line for the README's list (Markdown). */
  doc: string;
  /** The value an omitted option takes. */
  default?: Readonly<T>;
  /** What an omitted option means when it has no default value of its own (Markdown). */
  unset?: string;
  /** A number's bounds, both included. */
  min?: number;
  max?: number;
  /** The declarations of an object option's fields. */
  fields?: OptionDeclarations<T & object>;
}

/** One declaration for each option of `T`: adding an option to its interface without declaring it does not compile. */
export type OptionDeclarations<T> = { [Key in keyof Required<T>]: OptionDeclaration<Required<T>[Key]> };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 12 attempts over about 3 days (70 h 42 min of waits, before jitter). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

export const SCHEDULE_OPTIONS = {
  extraHolidays: {
    unset: 'none',
    doc: "days the banks close beyond Argentina's national holidays (`['2026-12-24']`): no `executeOn` transfer is released on them",
  },
  nonBusinessDayPolicy: {
    default: 'next',
    doc: 'an `executeOn` on a weekend or holiday: `next` business day, `previous` one, or `refuse` (422 `SCHEDULE_REFUSED`, naming the next business day)',
  },
  releaseTime: {
    default: '09:00',
    doc: "the time of day (Buenos Aires, `HH:MM`) an `executeOn` day's transfers are released at",
  },
  bankOperatingHours: {
    unset: 'any time',
    doc: 'the hours the bank takes transfers, `HH:MM-HH:MM` in Buenos Aires (`08:00-20:00`), on business days only: outside them nothing is sent (a new transfer is stored `PENDING` and waits, scheduled ones are released at the opening), and transfers already at the bank are still followed up',
  },
} as const satisfies OptionDeclarations<TransferScheduleOptions>;

export const SWEEP_OPTIONS = {
  batchSize: {
    default: 100,
    min: 1,
    max: MAX_BATCH_SIZE,
    doc: 'the most movements one claim takes (leases); a sweep that works slower claims a quarter second of its pace',
  },
  concurrency: {
    default: 8,
    min: 1,
    max: 1000,
    doc: 'movements worked on at once within a sweep; their bank calls are bounded by `budget` as well',
  },
  leaseMs: {
    unset: 'twice the longest bank call + `polling.minIntervalMs`',
    min: 1,
    max: DAY,
    doc: 'how long a worker owns a claimed movement; it must exceed the longest bank call (the sum of `bank.timeouts`) plus `polling.minIntervalMs`',
  },
  accountWeights: {
    default: {},
    doc: "the bank's fair share: `{ [address]: weight }` (a whole number from 1 to 100, default 1). When several source accounts' creations (new, approved or released transfers) wait for the bank, each batch takes them round by round, `weight` of an account's a round, so one account's backlog never holds another's transfer back by more than a few batch slots",
  },
} as const satisfies OptionDeclarations<TransferSweepOptions>;

/** A source account's weight in the fair share: a whole number of its transfers per round. */
export const ACCOUNT_WEIGHT = { default: 1, min: 1, max: 100 } as const;

export const BUDGET_OPTIONS = {
  maxInFlight: {
    default: 8,
    doc: 'bank calls in flight at once for the deployment, creations first; on Postgres the replicas share it (each takes 1/N through a heartbeat every second in `giro_replicas`, a joining one after about 2.6 s); on SQLite (one process) this process has it all',
  },
  ratePerSecond: {
    unset: 'no rate limit',
    doc: 'bank calls started in any second (a sliding window), shared like `maxInFlight`; a 429 with Retry-After pauses every replica',
  },
} as const satisfies OptionDeclarations<BankCallBudgetOptions>;

export const POLLING_OPTIONS = {
  minIntervalMs: {
    default: DEFAULT_POLLING_OPTIONS.minIntervalMs,
    doc: "minimum wait after an answer for PENDING, CREATED and IN_PROGRESS (the bank's value)",
  },
  delayedMinIntervalMs: {
    default: DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs,
    doc: "DELAYED waits strictly longer than this after an answer (the bank's value)",
  },
  maxJitterMs: {
    unset: '10 % of `minIntervalMs`',
    doc: 'upper bound of the random delay added so replicas do not query in lockstep (0 = none)',
  },
  maxBackoffMs: {
    default: DEFAULT_POLLING_OPTIONS.maxBackoffMs,
    doc: 'cap of the failure backoff, which starts at `minIntervalMs` and doubles per failure (0 = none)',
  },
  allowBelowSpec: {
    default: false,
    doc: "accept intervals below the bank's (5 s, 10 minutes): for the sandbox bank, tests, or a test bank that agreed to it; otherwise they are refused at start-up",
  },
} as const satisfies OptionDeclarations<TransferPollingOptions>;

export const WEBHOOK_OPTIONS = {
  allowLoopback: {
    default: false,
    doc: 'allow endpoints on loopback addresses (127.0.0.0/8, ::1, `localhost`), over http as well: tests, the sandbox, a receiver beside the reconciler',
  },
  allowPrivate: {
    default: false,
    doc: 'allow endpoints on private and link-local addresses (a webhook is not a way into the network)',
  },
  retryDelaysMs: {
    default: WEBHOOK_RETRY_DELAYS_MS,
    unset: '`WEBHOOK_RETRY_DELAYS_MS`: 5 s … 24 h, 11 waits, about 3 days in all',
    doc: 'the wait before each retry, in order (at most 50, each 1 ms to 7 days, + up to 10 % jitter); after the last one fails the delivery is dead',
  },
  timeoutMs: {
    default: 10 * SECOND,
    min: 100,
    max: MINUTE,
    doc: 'the longest attempt: connecting, sending and reading the answer',
  },
  maxInFlight: { default: 64, min: 1, max: 1000, doc: 'attempts in flight at once in this process' },
  pollIntervalMs: {
    default: 250,
    min: 10,
    max: MINUTE,
    doc: 'when nothing wakes it, the dispatcher looks for due deliveries this often',
  },
  secretGraceMs: {
    default: DAY,
    min: 0,
    max: 30 * DAY,
    doc: 'how long the previous secret keeps signing after a rotation',
  },
  retentionMs: {
    default: 30 * DAY,
    min: HOUR,
    max: 3650 * DAY,
    doc: 'how long an event is kept once no delivery of it is pending (delivered or dead), with its deliveries and their attempts',
  },
} as const satisfies OptionDeclarations<TransferWebhookOptions>;

export const TRANSFER_MODULE_OPTIONS = {
  bank: {
    unset: 'required',
    doc: '`BankClientOptions`: `baseUrl`, `tls` (PEM or files; verification cannot be switched off), `auth` (`token`, `oauth2` or `provider`; `scheme`), `hmac`, `proxyUrl`, `timeouts`, `duplicateCodes`, `notFoundCodes`… (messages name `bank.*`)',
  },
  databaseUrl: {
    unset: "the application's TypeORM data source",
    doc: "the module's own database, `sqlite:<file path>` or `postgres://…`; absent, the application's default data source (or `dataSourceName`'s), which must list `TRANSFER_ENTITIES` and `TRANSFER_MIGRATIONS`",
  },
  databaseStartTimeoutMs: {
    default: DEFAULT_DATABASE_START_TIMEOUT_MS,
    min: 0,
    max: HOUR,
    doc: 'with a Postgres `databaseUrl`: how long start-up waits for a server that cannot be reached yet (refused, starting up), trying again with growing pauses up to 5 s and saying so once; 0 fails at once. Any other failure (a wrong password, a database that does not exist) fails at once. Every failure is a `DatabaseStartError` naming the cause',
  },
  databasePoolSize: {
    default: DEFAULT_DATABASE_POOL_SIZE,
    min: 1,
    max: 200,
    doc: "with a Postgres `databaseUrl`: the connections of the module's pool. Each transaction holds one from its `BEGIN` to its commit, and the commits of the connections committing at once share one flush of the server's WAL, so a wider pool writes more transactions per second where the flush is the bound; every replica opens up to this many, and its own connections outside the pool (the heartbeat's, the webhook dispatcher's), against the server's `max_connections`. Not applicable to SQLite (one connection, whose transactions share one commit) nor to the application's data source (set its pool there)",
  },
  runMigrations: {
    default: false,
    doc: "run giro's pending migrations at start-up (Postgres: under an advisory lock, so replicas may start together); otherwise run them with `runTransferMigrations`",
  },
  polling: {
    unset: "the bank's values",
    doc: 'the polling rule ([docs/bank-api.md](../../docs/bank-api.md#states-and-polling)); lower only with `allowBelowSpec`, for tests and demos',
    fields: POLLING_OPTIONS,
  },
  budget: {
    default: { maxInFlight: BUDGET_OPTIONS.maxInFlight.default },
    doc: 'one budget for every bank call of the deployment',
    fields: BUDGET_OPTIONS,
  },
  sweep: {
    unset: "each field's default",
    doc: 'how a sweep claims and works through the due movements',
    fields: SWEEP_OPTIONS,
  },
  transferRules: {
    unset: "the module's rules",
    doc: "limits of a transfer request the bank leaves open: `{ maxAmount: '999999999999.99', maxDescriptionLength: 100, currencies: ['032'], concepts: CONCEPT_CODES }` (`concepts` must include `VAR`)",
  },
  sourceAccounts: {
    unset: '`from` not checked',
    doc: "the entity's own accounts, the only ones a transfer may be sent from: a `from` not among them, or with another holder, is refused (400 naming `from.address` or `from.owner.personId`), nothing stored or sent. At least one when given",
  },
  psp: {
    default: false,
    doc: "PSP mode: the entity is a payment service provider registered with the central bank and may also send from its clients' virtual sub-accounts (CVU) it registers (`SubAccountService`); with `sourceAccounts`, a `from` that is not one of them must then be such a sub-account, enabled, of that holder",
  },
  limits: {
    unset: 'none',
    doc: "limits per source account: `{ default?: { perTransfer?, dailyAmount?, dailyCount? }, accounts?: { [address]: { … } } }`, amounts as decimal strings (`'50000.00'`), days calendar days of Buenos Aires (UTC−3, from 03:00 UTC); an account's entry takes the default's limits it leaves out, `null` there is none. A transfer that would pass one: `TransferLimitError` (admin API 422, `rule` `per_transfer`, `daily_amount` or `daily_count`, and what remains), nothing stored or sent. Daily usage is taken in the intent's transaction, atomically across replicas; FAILED gives its share back",
  },
  approvals: {
    unset: 'none',
    doc: "maker–checker: `{ requiredAbove: '1000.00', expiresAfterMs?: 86_400_000 }`. A transfer of more than `requiredAbove` (`0`: every one) is stored `AWAITING_APPROVAL` (its originId and limit share taken) and **never sent** until `ApprovalService.approve(originId, by)` by another actor than its creator (`requestTransfer(input, { by })`); `reject(originId, { reason }, by)` or no approval within `expiresAfterMs` (1 minute to 30 days, default 24 h) ends it `REJECTED`, final, never sent, its limit share freed",
  },
  auditHmacKey: {
    unset: 'plain sha-256',
    doc: "the secret (32 characters or more, kept outside the database) the audit trail's hash chain is keyed with (HMAC-SHA256): a row rewritten and re-hashed by a database writer without it is named by `AuditService.verify()`; rows written before it was set stay verifiable, rows written with another key do not",
  },
  newPayeeRequiresApproval: {
    default: false,
    doc: "first payments held: a transfer to an account with no completed transfer and not approved as a payee is stored `AWAITING_APPROVAL` whatever its amount (its view's `approval.holds` says `{ reason: 'new_payee' }`), with `approvals`' expiry (default 24 h); approving it, by the same rule as any approval, approves the payee too (`PayeeService`)",
  },
  statementGraceDays: {
    default: 2,
    min: 0,
    max: 30,
    doc: 'business days (Argentine calendar) after the day a transfer was COMPLETED before an imported bank statement covering that day without it raises `missing_in_statement`',
  },
  schedule: {
    unset: 'the national calendar',
    doc: 'scheduled transfers: a request with `executeOn` (a Buenos Aires day) or `executeAt` (a moment with its offset) is stored `SCHEDULED`, its checks done and its limits counted on its day, and **never sent before its moment**; `ScheduledTransferService.cancel(originId, by)` ends one `CANCELED` before then',
    fields: SCHEDULE_OPTIONS,
  },
  webhooks: {
    unset: 'off',
    doc: 'given, every change writes its events to the outbox in its own transaction, and a `WebhookDispatcher` delivers them, signed (Standard Webhooks), to the endpoints `WebhookService` registers ([Webhooks](#webhooks))',
    fields: WEBHOOK_OPTIONS,
  },
  encryptionKey: {
    unset: 'secrets stored in clear',
    doc: "encrypts the secrets giro stores (webhook signing secrets) with AES-256-GCM: base64 of 32 bytes (`openssl rand -base64 32`), a string or a `Secret`. Each stored value names its key's id (`v1:<keyId>:…`); secrets stored in clear are encrypted at start; `SecretCipher` and `WebhookStore.sealStoredSecrets()` re-encrypt under a new key",
  },
  clock: {
    unset: 'the system clock',
    doc: 'the source of "now" (also the bank client\'s unless `bank.clock` is set) — inject a `ManualClock` in tests',
  },
} as const satisfies OptionDeclarations<TransferModuleOptions>;
