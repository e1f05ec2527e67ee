import {
  BUDGET_DEFAULTS,
  CONCEPT_CODES,
  DEFAULT_DATABASE_START_TIMEOUT_MS,
  DEFAULT_DATABASE_URL,
  DEFAULT_MAX_AMOUNT,
  DEFAULT_MAX_DESCRIPTION_LENGTH,
  DEFAULT_POLLING_OPTIONS,
  HMAC_PRESETS,
  NON_BUSINESS_DAY_POLICIES,
  SWEEP_DEFAULTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from '@giro/transfer-module';
import { BANK_CLIENT_DEFAULTS } from '@giro/transfer-module/bank';
import { DEFAULT_DATABASE_POOL_SIZE, MAX_BATCH_SIZE } from '@giro/transfer-module/persistence';
import { formatDuration } from './durations';
import {
  amount,
  boolean,
  dayList,
  decimal,
  duration,
  durations,
  file,
  integer,
  list,
  listenAddress,
  ms,
  oneOf,
  secret,
  text,
  timeOfDay,
  timeRange,
  url,
  weightList,
} from './variable-kinds';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Sandbox mode only: the polling rule scaled down so the demo batch settles in seconds (the sandbox bank audits it). */
export const DEMO_POLLING = { minIntervalMs: 1_000, delayedMinIntervalMs: 4_000 } as const;

/** The module's bound on sweep.concurrency (variables.spec.ts checks it agrees). */
const MAX_SWEEP_CONCURRENCY = 1000;
/** The module's bounds of `webhooks.*` (its declarations are not public; variables.spec.ts checks these agree). */
const WEBHOOK_TIMEOUT_MS = { min: 100, max: 60_000 };
const WEBHOOK_MAX_IN_FLIGHT = { min: 1, max: 1000 };

const code = (value: string | number) => `\`${value}\``;

/**
 * Every environment variable of the reconciler, declared once: its kind and bounds (how it is read and the rule a
 * bad value breaks), its default, and the line the README's table shows. The typed environment (`environment.ts`)
 * and the README's table (`variable-table.ts`) are derived from it; the rules that join several variables are in
 * `reconciler-config.ts` and the files it calls. Programs outside this repository set these names: keep them.
 */
export const VARIABLES = {
  // The bank: every one of these without BANK_BASE_URL is a mistake (reconciler-config.ts).
  BANK_BASE_URL: url({
    topic: 'bank',
    protocol: 'https',
    example: 'https://bank.example.com',
    unset: 'sandbox mode',
    doc: `the bank's https base URL (the API is under ${code(BANK_CLIENT_DEFAULTS.pathPrefix)}); unset, the reconciler starts the sandbox bank and a demo batch`,
  }),
  BANK_CA_FILE: file({
    topic: 'bank',
    unset: "Node's trusted roots",
    doc: "PEM CA certificate(s) for the bank's server certificate",
  }),
  BANK_CERT_FILE: file({
    topic: 'bank',
    unset: 'required with a bank',
    doc: 'client certificate, PEM (mutual TLS)',
  }),
  BANK_KEY_FILE: file({
    topic: 'bank',
    unset: 'required with a bank',
    doc: "the client certificate's key, PEM; it must match `BANK_CERT_FILE`",
  }),
  BANK_KEY_PASSPHRASE: secret({ topic: 'bank', unset: 'none', doc: 'passphrase of an encrypted client key' }),
  BANK_TOKEN: secret({
    topic: 'bank',
    unset: 'none',
    doc: 'a static access token; or OAuth2 client credentials (the next three): exactly one of the two ways',
  }),
  BANK_TOKEN_URL: url({
    topic: 'bank',
    protocol: 'https',
    unset: 'none',
    doc: 'OAuth2 client credentials (RFC 6749 §4.4): the token endpoint; needs `BANK_CLIENT_ID` and `BANK_CLIENT_SECRET`',
  }),
  BANK_CLIENT_ID: text({ topic: 'bank', unset: 'none', doc: 'OAuth2 client credentials: the client id' }),
  BANK_CLIENT_SECRET: secret({ topic: 'bank', unset: 'none', doc: 'OAuth2 client credentials: the client secret' }),
  BANK_AUTH_SCHEME: text({
    topic: 'bank',
    unset: code(BANK_CLIENT_DEFAULTS.authScheme),
    doc: 'the word before the token in `Authorization` (e.g. `JWT`)',
  }),
  BANK_HMAC_SECRET: secret({
    topic: 'bank',
    unset: 'no signing',
    doc: 'signs every request ([the default scheme](../../docs/bank-api.md#the-default-hmac-scheme)); the other `BANK_HMAC_*` need it',
  }),
  BANK_HMAC_KEY_ID: text({ topic: 'bank', unset: 'none', doc: 'the key id sent with each signature' }),
  BANK_HMAC_ALGORITHM: oneOf(['sha256', 'sha512'], {
    topic: 'bank',
    unset: code(BANK_CLIENT_DEFAULTS.hmacAlgorithm),
    doc: "the signature's hash",
  }),
  BANK_HMAC_PRESET: oneOf(HMAC_PRESETS, {
    topic: 'bank',
    unset: code(BANK_CLIENT_DEFAULTS.hmacPreset),
    doc: 'the signing scheme: `default`, or `single-header` ([one header `keyId=…,ts=…,sig=…`](../../docs/bank-api.md#the-single-header-hmac-preset))',
  }),
  BANK_HMAC_TIMESTAMP_HEADER: text({
    kind: 'header name',
    topic: 'bank',
    unset: code('X-Timestamp'),
    doc: "the timestamp's header name (an HTTP header name, distinct from the others); not with `single-header`",
  }),
  BANK_HMAC_SIGNATURE_HEADER: text({
    kind: 'header name',
    topic: 'bank',
    unset: '`X-Signature` (`Signature` with `single-header`)',
    doc: "the signature's header name (an HTTP header name, distinct from the others)",
  }),
  BANK_HMAC_KEY_ID_HEADER: text({
    kind: 'header name',
    topic: 'bank',
    unset: code('X-Key-Id'),
    doc: "the key id's header name (an HTTP header name, distinct from the others); not with `single-header`",
  }),
  BANK_DUPLICATE_CODES: list({
    topic: 'bank',
    unset: 'none',
    doc: 'comma-separated 409 codes that mean "this originId was already processed"; set, it must list at least one',
  }),
  BANK_NOT_FOUND_CODES: list({
    topic: 'bank',
    unset: 'none',
    doc: 'comma-separated error codes of get-movement that mean "no such movement" (besides HTTP 404): right after a create, never FAILED; set, it must list at least one',
  }),
  BANK_PROXY_URL: url({
    topic: 'bank',
    protocol: 'http',
    what: 'the http URL of a forward proxy (CONNECT tunnel)',
    example: 'http://proxy.internal:3128',
    unset: 'none',
    doc: '`http://host:port` of a forward proxy (a VPN gateway): requests go through a CONNECT tunnel, TLS still end to end with the bank',
  }),
  BANK_PATH_PREFIX: text({
    kind: 'path',
    topic: 'bank',
    unset: code(BANK_CLIENT_DEFAULTS.pathPrefix),
    doc: 'the path both operations are under: `/` and segments of letters, digits, `.`, `_`, `~`, `-`',
  }),
  BANK_DEBIN_ID_FIELD: text({
    kind: 'field name',
    topic: 'bank',
    unset: code(BANK_CLIENT_DEFAULTS.debinIdField),
    doc: 'the get-movement field that carries a DEBIN id (the bank does not name it): a JSON field name (letters, digits, `_`), not `originId`, `networkId` or `getRawData`',
  }),
  BANK_TIMEOUT_MS: ms({
    topic: 'bank',
    min: 100,
    max: 600_000,
    unset: `${code(BANK_CLIENT_DEFAULTS.timeouts.connectMs)} connect, ${code(BANK_CLIENT_DEFAULTS.timeouts.headersMs)} answer`,
    doc: "connect, headers and body timeouts of bank calls, one figure for all three; leases outlast the longest call, so shorter timeouts also hand a dead process's movements over sooner",
  }),

  // What is sent, and from where.
  SOURCE_ACCOUNTS: list({
    topic: 'sending',
    unset: 'required with a bank (sandbox: the demo account)',
    doc: 'the accounts giro may send from, `address:ownerPersonId,…` (e.g. `0000003110000000000175:30712345671`); a `from` not among them, or with another holder, is refused with 400 naming `from.address` or `from.owner.personId`, nothing stored or sent',
  }),
  PSP_MODE: boolean({
    topic: 'sending',
    default: false,
    doc: "`true` for a payment service provider registered with the central bank: it may also send from its clients' virtual sub-accounts (CVU), registered with `POST /admin/sub-accounts`; without it those routes answer 403 and a CVU that is not a source account is refused",
  }),
  TRANSFER_CURRENCIES: list({
    topic: 'sending',
    unset: code('032'),
    doc: 'comma-separated currency codes accepted in `body.currencyId` (3-digit ISO 4217); another is refused with 400 naming `body.currencyId` and the accepted ones. The sandbox bank accepts `032` only',
  }),
  TRANSFER_CONCEPTS: list({
    topic: 'sending',
    unset: code(CONCEPT_CODES.join(',')),
    doc: 'comma-separated concept codes accepted in `body.concept` (1–16 characters A–Z, 0–9; must include `VAR`, the concept of a request without one); another is refused with 400 naming `body.concept`; the sandbox bank knows the default list only',
  }),
  TRANSFER_MAX_AMOUNT: amount({
    topic: 'sending',
    unset: code(DEFAULT_MAX_AMOUNT),
    doc: 'largest amount of one transfer, a decimal string from 0.01 to 9999999999999.99; above it, 400 naming `body.amount`',
  }),
  TRANSFER_MAX_DESCRIPTION_LENGTH: integer({
    topic: 'sending',
    unit: 'characters',
    min: 1,
    unset: code(DEFAULT_MAX_DESCRIPTION_LENGTH),
    doc: 'longest `body.description`, in characters',
  }),

  // Limits per source account, and maker–checker (limits-environment.ts, approvals-environment.ts).
  LIMIT_PER_TRANSFER: amount({
    topic: 'limits',
    unset: 'none',
    doc: 'the largest amount one transfer may have from any source account (a decimal string, e.g. `50000.00`); above it, 422 with `rule: per_transfer`, nothing stored or sent',
  }),
  LIMIT_DAILY_AMOUNT: amount({
    topic: 'limits',
    unset: 'none',
    doc: 'the most a source account may send in one day (Buenos Aires calendar day: it starts at 03:00 UTC), e.g. `1000000.00`; a transfer that would pass it: 422 with `rule: daily_amount` and what remains today. FAILED transfers give their share back',
  }),
  LIMIT_DAILY_COUNT: text({
    kind: 'count',
    topic: 'limits',
    unset: 'none',
    doc: 'the most transfers a source account may send in one day (whole number ≥ 1); beyond it, 422 with `rule: daily_count`',
  }),
  SOURCE_ACCOUNT_LIMITS: list({
    topic: 'limits',
    unset: 'none',
    doc: "some accounts' own limits, `address:perTransfer/dailyAmount/dailyCount,…` (e.g. `0000003110000000000175:50000.00/1000000.00/100`); an empty part takes the `LIMIT_*` default, `none` is no such limit for that account (`…0175:/none/20`). Outside PSP mode each address must be one of `SOURCE_ACCOUNTS`",
  }),
  APPROVAL_REQUIRED_ABOVE: amount({
    topic: 'limits',
    unset: 'none (no approvals)',
    doc: "maker–checker: a transfer of more than this amount (`0`: every transfer) is stored `AWAITING_APPROVAL` and never sent until a key with the approver role, not its creator's, approves it ([Approvals](#approvals-maker-checker))",
  }),
  NEW_PAYEE_REQUIRES_APPROVAL: boolean({
    topic: 'limits',
    default: false,
    doc: '`true`: a transfer to an account never paid (no completed transfer) and not approved as a payee waits `AWAITING_APPROVAL` whatever its amount (its view: `approval.holds` `new_payee`); approving it by another key approves the payee ([Payees](#payees))',
  }),
  APPROVAL_EXPIRES_AFTER: duration({
    topic: 'limits',
    example: '30m, 24h or 2d',
    unset: code('24h'),
    doc: 'how long a transfer waits for its approval (`30m`, `24h`, `2d`; 1 minute to 30 days); then the next sweep ends it `REJECTED`, never sent. Needs `APPROVAL_REQUIRED_ABOVE`',
  }),

  // Scheduled transfers (schedule-environment.ts): Argentina's bank calendar.
  NON_BUSINESS_DAY_POLICY: oneOf(NON_BUSINESS_DAY_POLICIES, {
    topic: 'schedule',
    default: 'next',
    doc: 'an `executeOn` that is a weekend or a holiday: sent on the `next` business day, the `previous` one, or `refuse`d (422 `SCHEDULE_REFUSED`, naming the next business day)',
  }),
  EXTRA_HOLIDAYS: dayList({
    topic: 'schedule',
    unset: 'none',
    doc: "days the bank closes beyond Argentina's national holidays, `YYYY-MM-DD,…`: no `executeOn` transfer is released on them",
  }),
  SCHEDULE_RELEASE_TIME: timeOfDay({
    topic: 'schedule',
    default: '09:00',
    doc: "the time of day (Buenos Aires) an `executeOn` day's transfers are released to the bank",
  }),
  BANK_OPERATING_HOURS: timeRange({
    topic: 'schedule',
    unset: 'any time',
    doc: 'the hours the bank takes transfers, `HH:MM-HH:MM` in Buenos Aires (`08:00-20:00`), business days only: outside them nothing is sent (new transfers are stored `PENDING`, scheduled ones released at the opening); transfers the bank has are still followed up',
  }),

  STATEMENT_GRACE_DAYS: integer({
    topic: 'schedule',
    unit: 'business days',
    min: 0,
    max: 30,
    default: 2,
    doc: 'business days (Argentine calendar) after the day a transfer was COMPLETED before an imported bank statement covering that day without it raises `missing_in_statement` ([statements](../../docs/statements.md))',
  }),
  STATEMENT_COLUMNS: text({
    topic: 'schedule',
    example: 'date:Fecha,amount:Importe,reference:Referencia',
    unset: '`date,amount,reference,description`',
    doc: "the headers of the bank's statement, as `field:Header` pairs, for `POST /admin/statements`; the fields not named keep their default header",
  }),

  // The pace of the work: polling (polling-floor.ts), bank calls, the sweep.
  POLL_MIN_INTERVAL_MS: ms({
    topic: 'pace',
    min: 1,
    unset: `${code(DEFAULT_POLLING_OPTIONS.minIntervalMs)} (sandbox: ${code(DEMO_POLLING.minIntervalMs)})`,
    doc: 'minimum wait after an answer about a CREATED/IN_PROGRESS movement',
  }),
  DELAYED_MIN_INTERVAL_MS: ms({
    topic: 'pace',
    min: 1,
    unset: `${code(DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs)} (sandbox: ${code(DEMO_POLLING.delayedMinIntervalMs)})`,
    doc: 'a DELAYED movement waits strictly longer than this',
  }),
  ALLOW_POLLING_BELOW_SPEC: boolean({
    topic: 'pace',
    default: false,
    doc: `\`true\` accepts \`POLL_MIN_INTERVAL_MS\` below ${DEFAULT_POLLING_OPTIONS.minIntervalMs} or \`DELAYED_MIN_INTERVAL_MS\` below ${DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs} with a bank (a test bank that agreed to it; a warning at start); without it such values stop the start naming the variable and the bank's minimum. Sandbox mode always accepts them`,
  }),
  POLL_MAX_JITTER_MS: ms({
    topic: 'pace',
    min: 0,
    unset: '10 % of `POLL_MIN_INTERVAL_MS`',
    doc: 'bound of the random delay added to each next lookup so replicas do not query in lockstep (`0` = none); it adds to the detection lag, so keep it a small part of the interval',
  }),
  BANK_MAX_IN_FLIGHT: integer({
    topic: 'pace',
    unit: 'bank calls',
    min: 1,
    default: BUDGET_DEFAULTS.maxInFlight,
    doc: 'bank calls in flight at once for the whole deployment, creations served first: on Postgres the live replicas share it through their heartbeats (each takes 1/N, at least 1); set it to what the bank allows. Sandbox mode too',
  }),
  BANK_RATE_PER_SECOND: decimal({
    topic: 'pace',
    unit: 'bank calls per second',
    above: 0,
    example: '0.5 or 20',
    unset: 'no rate limit',
    doc: "bank calls the whole deployment starts in any second (a sliding window, no burst on top): on Postgres each live replica takes 1/N of it, and a 429 with `Retry-After` pauses them all; set it to the bank's rate limit. Sandbox mode too",
  }),
  SWEEP_INTERVAL_MS: ms({
    topic: 'pace',
    min: 100,
    max: 3_600_000,
    default: 1_000,
    doc: "the longest pause between one sweep's end and the next one's start; sooner when a movement falls due, but never less than a tenth of it",
  }),
  SWEEP_BATCH_SIZE: integer({
    topic: 'pace',
    unit: 'movements',
    min: 1,
    max: MAX_BATCH_SIZE,
    default: SWEEP_DEFAULTS.batchSize,
    doc: 'movements a sweep claims (leases) at a time; larger batches mean fewer claim statements but more movements held by one process',
  }),
  ACCOUNT_WEIGHTS: weightList({
    topic: 'pace',
    maxWeight: 100,
    key: /^\d{22}$/,
    keyRule: 'CBU/CVU',
    unset: 'every account 1',
    doc: "the bank's fair share: `address:weight,…`; when several source accounts' transfers wait for the bank, a sweep's batch takes them round by round, `weight` of an account's a round, so one account's backlog never holds another's transfer back",
  }),
  SWEEP_CONCURRENCY: integer({
    topic: 'pace',
    unit: 'movements',
    min: 1,
    max: MAX_SWEEP_CONCURRENCY,
    default: SWEEP_DEFAULTS.concurrency,
    doc: 'movements a sweep works on at once; their bank calls still wait for `BANK_MAX_IN_FLIGHT`, so raise both together when the bank is far away',
  }),

  DATABASE_URL: text({
    kind: 'database URL',
    topic: 'database',
    default: DEFAULT_DATABASE_URL,
    doc: '`sqlite:<file path>` or `postgres://…`',
  }),
  DATABASE_START_TIMEOUT_MS: ms({
    topic: 'database',
    min: 0,
    max: 3_600_000,
    default: DEFAULT_DATABASE_START_TIMEOUT_MS,
    doc: 'how long the reconciler waits at start for a Postgres server that cannot be reached yet (containers started together), saying so once on stderr; then it starts, or exits 1 with `giro-reconciler cannot start: the database did not answer within …`. 0: exit at the first refusal. A refusal waiting cannot mend (a wrong password, no such database) exits at once',
  }),

  DATABASE_POOL_SIZE: integer({
    topic: 'database',
    unit: 'connections',
    min: 1,
    max: 200,
    default: DEFAULT_DATABASE_POOL_SIZE,
    doc: "Postgres: the connections of the reconciler's pool. Each transaction holds one from its `BEGIN` to its commit, and the commits of the connections committing at once share one flush of the server's WAL: widen it when the writes queue for a connection (see [BENCHMARKS.md](../../BENCHMARKS.md)). Every replica opens up to this many, and its own connections outside the pool (the heartbeat's, the webhook dispatcher's), against the server's `max_connections`. Not applicable to SQLite (one connection; its transactions share one commit)",
  }),

  // The HTTP server of the admin API, /health, /metrics and /docs (server-environment.ts).
  ADMIN_TOKEN: secret({
    topic: 'server',
    minLength: 16,
    unset: 'generated in sandbox mode',
    doc: 'the bootstrap admin key for `/admin/*` (role `admin`: makes the API keys); required with a bank',
  }),
  AUDIT_HMAC_KEY: secret({
    topic: 'server',
    minLength: 32,
    unset: 'generated in sandbox mode (kept in `data/audit-hmac.key`)',
    doc: "the secret the audit trail's hash chain is keyed with (HMAC-SHA256), kept outside the database: `giro-reconciler audit verify` then names a row rewritten and re-hashed by anyone without it; required with a bank. Give `giro-reconciler keys` and `audit verify` the same one. Changing it leaves the rows written with the old one unverifiable (see [Controls](#controls))",
  }),
  PORT: integer({
    topic: 'server',
    min: 0,
    max: 65_535,
    default: 3000,
    doc: 'admin API, `/health`, `/metrics`, `/docs`',
  }),
  HOST: listenAddress({
    topic: 'server',
    default: '127.0.0.1',
    doc: 'the address to listen on: loopback only by default; `0.0.0.0` (or `::`) for every interface, e.g. behind a reverse proxy on another host (see [Security](#security))',
  }),
  TRUST_PROXY: text({
    kind: 'proxies',
    topic: 'server',
    unset: 'no proxy trusted',
    doc: 'Express `trust proxy`: whose `X-Forwarded-For` gives the client address the rate limits count by: `true` (every hop: only when nothing reaches giro but the proxy), a number of hops, or comma-separated proxy addresses and subnets (`loopback`, `10.0.0.0/8`, `fd00::/8`…)',
  }),
  ADMIN_TLS_CERT_FILE: file({
    topic: 'server',
    unset: 'plain HTTP',
    doc: 'serve HTTPS with this PEM certificate (chain); with `ADMIN_TLS_KEY_FILE`, both or neither, checked at start (readable, the key that of the certificate)',
  }),
  ADMIN_TLS_KEY_FILE: file({
    topic: 'server',
    unset: 'plain HTTP',
    doc: 'the PEM key of `ADMIN_TLS_CERT_FILE`',
  }),
  METRICS_TOKEN: secret({
    topic: 'server',
    minLength: 16,
    unset: '`/metrics` open',
    doc: '`/metrics` then needs `Authorization: Bearer $METRICS_TOKEN`',
  }),
  UPLOAD_TIMEOUT_MS: ms({
    topic: 'server',
    min: 10_000,
    max: 3_600_000,
    default: 900_000,
    doc: 'the longest an upload (`POST /admin/statements`, `POST /admin/transfers/batch`) may take to arrive; every other request must arrive within 10 s (against clients trickling bodies)',
  }),
  UPLOAD_MIN_BYTES_PER_SECOND: integer({
    topic: 'server',
    unit: 'bytes/s',
    min: 1,
    max: 1_073_741_824,
    default: 65_536,
    doc: 'past its first 10 s, an upload must bring at least this many bytes a second over the last 10 s, or it is answered 408 and its connection closed: a slow but steady upload goes on, a trickle is cut',
  }),
  ADMIN_RATE_LIMIT_PER_MINUTE: integer({
    topic: 'server',
    unit: 'requests',
    min: 1,
    max: 1_000_000,
    default: 600,
    doc: 'admin requests each API key, and the admin token, may make per minute, from any address; beyond it 429 with `Retry-After` (`/health`, `/metrics` never throttled)',
  }),
  ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: integer({
    topic: 'server',
    unit: 'requests',
    min: 1,
    max: 1_000_000,
    default: 60,
    doc: "requests without a valid token one client address may make per minute (401 each), then 429: a budget apart from the keys', so they never lock a key out",
  }),
  LOG_LEVEL: oneOf(LOG_LEVELS, { topic: 'server', default: 'info', doc: 'the least severe level written' }),

  // Webhooks (webhook-environment.ts checks the endpoint with the module's rules).
  WEBHOOK_URL: text({
    kind: 'https URL',
    topic: 'webhooks',
    unset: 'none (endpoints through the admin API only)',
    doc: 'one webhook endpoint from the environment, with `WEBHOOK_SECRET` (both or neither): an https URL (a safe target, see [webhooks](../../docs/webhooks.md#registering-an-endpoint)), registered as `ep_environment` at every start, disabled when it is removed. Never logged',
  }),
  WEBHOOK_SECRET: secret({
    topic: 'webhooks',
    unset: 'none',
    doc: "the `WEBHOOK_URL` endpoint's `whsec_…` secret (base64 of 24–64 bytes). Never logged",
  }),
  WEBHOOK_EVENT_TYPES: list({
    topic: 'webhooks',
    unset: 'all',
    doc: 'comma-separated event types of that endpoint (`transfer.created`, `transfer.status_changed`, `transfer.completed`, `transfer.failed`, `transfer.anomaly`); needs `WEBHOOK_URL`',
  }),
  WEBHOOK_ALLOW_LOOPBACK: boolean({
    topic: 'webhooks',
    unset: '`false` (`true` in sandbox mode)',
    doc: '`true` allows endpoints on loopback addresses (`localhost`, 127.0.0.0/8, ::1), over plain http too: tests, a receiver beside the reconciler',
  }),
  WEBHOOK_ALLOW_PRIVATE: boolean({
    topic: 'webhooks',
    default: false,
    doc: '`true` allows endpoints on private and link-local addresses (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7…); checked again after DNS on every connection',
  }),
  WEBHOOK_TIMEOUT_MS: ms({
    topic: 'webhooks',
    ...WEBHOOK_TIMEOUT_MS,
    unset: code(10_000),
    doc: 'the longest delivery attempt (connect, send, read the answer)',
  }),
  WEBHOOK_RETRY_DELAYS: durations({
    topic: 'webhooks',
    min: '1ms',
    max: '7d',
    maxItems: 50,
    example: '5s,30s,2m',
    unset: code(WEBHOOK_RETRY_DELAYS_MS.map(formatDuration).join(',')),
    doc: 'the waits before each retry, comma-separated durations (`ms`, `s`, `m`, `h`, `d`, or a bare number of milliseconds); after the last one the delivery is dead (each wait + up to 10 % jitter)',
  }),
  WEBHOOK_MAX_IN_FLIGHT: integer({
    topic: 'webhooks',
    unit: 'deliveries',
    ...WEBHOOK_MAX_IN_FLIGHT,
    unset: code(64),
    doc: 'delivery attempts in flight at once in this process',
  }),
  WEBHOOK_RETENTION: duration({
    topic: 'webhooks',
    min: '1h',
    max: '3650d',
    example: '30d',
    unset: code('30d'),
    doc: 'how long an event is kept once none of its deliveries is pending (delivered or dead), with its deliveries and attempts',
  }),

  // The bank certificates watched (certificates/), the secrets giro stores encrypted.
  CERT_EXPIRY_WARNING_DAYS: integer({
    topic: 'security',
    unit: 'days',
    min: 1,
    max: 365,
    default: 14,
    doc: '`/health/ready` warns this long before the client certificate or the bank CA expires (and fails once one has); the files are read again on SIGHUP and when they change. Sandbox mode too',
  }),
  ENCRYPTION_KEY: secret({
    topic: 'security',
    unset: 'required with a bank; sandbox mode makes one and keeps it in `data/sandbox-encryption.key`',
    doc: 'base64 of 32 bytes (`openssl rand -base64 32`): the webhook signing secrets are stored encrypted with it (AES-256-GCM), those stored in clear before are encrypted at start; `giro-reconciler secrets rotate --new-key …` moves them to another key',
  }),
};

export type VariableName = keyof typeof VARIABLES;
