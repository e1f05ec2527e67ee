import {
  type ApprovalOptions,
  type BankClientOptions,
  BankOptionsError,
  DEFAULT_POLLING_OPTIONS,
  dataSourceOptionsFromUrl,
  PollingPolicy,
  type SourceAccount,
  type SourceAccountLimitsOptions,
  type TransferIntentRules,
  type TransferScheduleOptions,
} from '@giro/transfer-module';
import { resolveBankClientOptions } from '@giro/transfer-module/bank';
import { encryptionKeyFrom } from '@giro/transfer-module/persistence';
import { approvalsFromEnvironment } from './approvals-environment';
import { bankClientOptionsFromEnvironment } from './bank-environment';
import { type ReconcilerEnvironment, readEnvironment } from './environment';
import { limitsFromEnvironment } from './limits-environment';
import { pollingBelowSpecAllowed, pollingFloorProblems } from './polling-floor';
import { type ServerSettings, serverSettingsFromEnvironment } from './server-environment';
import { sourceAccountsFromEnvironment } from './source-accounts-environment';
import { transferRulesFromEnvironment } from './transfer-rules-environment';
import { DEMO_POLLING, type LogLevel, VARIABLES, type VariableName } from './variables';
import { type WebhookSettings, webhookSettingsFromEnvironment } from './webhook-environment';

/** The bank's polling rule (docs/bank-api.md#states-and-polling): what the reconciler uses unless told otherwise. */
export const SPEC_POLLING = {
  minIntervalMs: DEFAULT_POLLING_OPTIONS.minIntervalMs,
  delayedMinIntervalMs: DEFAULT_POLLING_OPTIONS.delayedMinIntervalMs,
} as const;

export interface PollingSettings {
  minIntervalMs: number;
  delayedMinIntervalMs: number;
  /** POLL_MAX_JITTER_MS, else the module's default (10 % of minIntervalMs); absent = that default. */
  maxJitterMs?: number;
  /** True when the sandbox defaults (DEMO_POLLING) replaced the spec values: say so on screen. */
  scaledForDemo: boolean;
  /** Intervals below the bank's minimums are accepted: sandbox mode, or ALLOW_POLLING_BELOW_SPEC=true. */
  allowBelowSpec: boolean;
}

export interface ReconcilerConfig {
  port: number;
  databaseUrl: string;
  /** DATABASE_START_TIMEOUT_MS: how long the start waits for a Postgres server that cannot be reached yet. */
  databaseStartTimeoutMs: number;
  /** Postgres: the connections of the data source's pool (ignored on SQLite). */
  databasePoolSize: number;
  /** Undefined only in sandbox mode, where one is generated at start. */
  adminToken: string | undefined;
  /** AUDIT_HMAC_KEY; undefined in sandbox mode (audit-key.ts keeps one) and for the sweep command. */
  auditHmacKey: string | undefined;
  /** The real bank; undefined means sandbox mode (BANK_BASE_URL unset). */
  bank: BankClientOptions | undefined;
  /** The accounts giro may send from (SOURCE_ACCOUNTS; the demo's in sandbox mode); absent = `from` not checked. */
  sourceAccounts?: SourceAccount[];
  /** NEW_PAYEE_REQUIRES_APPROVAL=true: a first payment to an account waits for an approval. */
  newPayeeRequiresApproval?: boolean;
  statementGraceDays?: number;
  /** The statement's headers, `field:Header` pairs (STATEMENT_COLUMNS). */
  statementColumns?: string;
  /** PSP_MODE=true: the entity also sends from its clients' registered sub-accounts (CVU). */
  psp?: boolean;
  /** LIMIT_PER_TRANSFER, LIMIT_DAILY_AMOUNT, LIMIT_DAILY_COUNT, SOURCE_ACCOUNT_LIMITS; absent = no limits. */
  limits?: SourceAccountLimitsOptions;
  /** Maker–checker (APPROVAL_REQUIRED_ABOVE, APPROVAL_EXPIRES_AFTER); absent when off. */
  approvals?: ApprovalOptions;
  /**
   * Scheduled transfers (NON_BUSINESS_DAY_POLICY, EXTRA_HOLIDAYS, SCHEDULE_RELEASE_TIME, BANK_OPERATING_HOURS);
   * absent = the module's.
   */
  schedule?: TransferScheduleOptions;
  /** TRANSFER_CURRENCIES, TRANSFER_CONCEPTS, TRANSFER_MAX_AMOUNT, TRANSFER_MAX_DESCRIPTION_LENGTH; absent = the module's. */
  transferRules?: TransferIntentRules;
  polling: PollingSettings;
  /** This process's budget for bank calls (BANK_MAX_IN_FLIGHT, BANK_RATE_PER_SECOND); absent = the module's. */
  bankCalls?: BankCallSettings;
  /** The longest pause between the end of one sweep and the start of the next. */
  sweepIntervalMs: number;
  /** How a sweep works through the due movements (SWEEP_BATCH_SIZE, SWEEP_CONCURRENCY); absent = the module's. */
  sweep?: SweepSettings;
  /** Admin requests one credential (the admin token) may make per minute (429 with Retry-After beyond). */
  adminRateLimitPerMinute: number;
  /** The HTTP server: address, proxies, TLS, the metrics token, the budget of unauthenticated requests. */
  server: ServerSettings;
  /** CERT_EXPIRY_WARNING_DAYS: how long before a bank certificate expires `/health/ready` warns. */
  certificateWarningDays?: number;
  /** ENCRYPTION_KEY (base64 of 32 bytes); undefined in sandbox mode until one is made, or in a test's configuration. */
  encryptionKey?: string;
  logLevel: LogLevel;
  /**
   * The webhooks (WEBHOOK_*): the module's `webhooks` option and the environment's endpoint. Absent (a test's
   * configuration): the module's defaults, no environment endpoint — the outbox is written either way.
   */
  webhooks?: WebhookSettings;
}

export interface BankCallSettings {
  /** Bank calls in flight at once, creations and lookups together. */
  maxInFlight: number;
  /** Bank calls started per second; undefined = no rate limit. */
  ratePerSecond: number | undefined;
}

export interface SweepSettings {
  /** Movements claimed per batch. */
  batchSize: number;
  /** Movements worked on at once (their bank calls still wait for the budget). */
  concurrency: number;
  /** Source accounts' weights in the bank's fair share (ACCOUNT_WEIGHTS); absent = 1 each. */
  accountWeights?: Record<string, number>;
}

/** The environment is unusable; `problems` name each variable and its rule (never a value). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The reconciler's configuration from the environment (the table in its README). Checks everything it can before
 * anything starts — formats, the variables that go together, the certificate files and keys — and throws
 * one ConfigError listing every problem. `adminApi: false` (the sweep CLI, which serves no HTTP and writes no
 * audit row) does not require ADMIN_TOKEN nor AUDIT_HMAC_KEY.
 */
export function reconcilerConfigFromEnv(
  env: Record<string, string | undefined>,
  { adminApi = true }: { adminApi?: boolean } = {},
): ReconcilerConfig {
  const read = readEnvironment(env);
  if (!read.ok) throw new ConfigError(read.problems);
  const vars = read.environment;
  const problems: string[] = [];

  const databaseUrl = vars.DATABASE_URL;
  problems.push(...databaseUrlProblems(databaseUrl));

  const sandbox = vars.BANK_BASE_URL === undefined;
  const bank = sandbox ? undefined : bankClientOptionsFromEnvironment(vars, problems);
  if (sandbox) problems.push(...variablesNeedingABank(vars));
  problems.push(...pollingFloorProblems(vars, sandbox));
  const sourceAccounts = sourceAccountsFromEnvironment(vars, sandbox, problems);
  const transferRules = transferRulesFromEnvironment(vars, problems);
  const limits = limitsFromEnvironment(vars, { accounts: sourceAccounts, psp: vars.PSP_MODE }, problems);
  const approvals = approvalsFromEnvironment(vars, problems);
  if (bank) checkBankOptions(bank, problems);
  const server = serverSettingsFromEnvironment(vars, problems);
  const webhooks = webhookSettingsFromEnvironment(vars, sandbox, problems);
  problems.push(...encryptionKeyProblems(vars.ENCRYPTION_KEY, sandbox));
  if (adminApi && !sandbox && vars.ADMIN_TOKEN === undefined) {
    problems.push('ADMIN_TOKEN is required when BANK_BASE_URL is set (only sandbox mode generates one)');
  }
  if (adminApi && !sandbox && vars.AUDIT_HMAC_KEY === undefined) {
    problems.push('AUDIT_HMAC_KEY is required when BANK_BASE_URL is set (only sandbox mode generates one)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: vars.PORT,
    databaseUrl,
    databaseStartTimeoutMs: vars.DATABASE_START_TIMEOUT_MS,
    databasePoolSize: vars.DATABASE_POOL_SIZE,
    adminToken: vars.ADMIN_TOKEN,
    auditHmacKey: vars.AUDIT_HMAC_KEY,
    bank,
    ...(sourceAccounts && { sourceAccounts }),
    ...(vars.PSP_MODE && { psp: true }),
    ...(transferRules && { transferRules }),
    ...(limits && { limits }),
    ...(approvals && { approvals }),
    ...(vars.NEW_PAYEE_REQUIRES_APPROVAL && { newPayeeRequiresApproval: true }),
    statementGraceDays: vars.STATEMENT_GRACE_DAYS,
    ...(vars.STATEMENT_COLUMNS !== undefined && { statementColumns: vars.STATEMENT_COLUMNS }),
    schedule: {
      nonBusinessDayPolicy: vars.NON_BUSINESS_DAY_POLICY,
      releaseTime: vars.SCHEDULE_RELEASE_TIME,
      ...(vars.BANK_OPERATING_HOURS !== undefined && { bankOperatingHours: vars.BANK_OPERATING_HOURS }),
      ...(vars.EXTRA_HOLIDAYS !== undefined && { extraHolidays: vars.EXTRA_HOLIDAYS }),
    },
    polling: pollingSettings(vars, sandbox),
    bankCalls: {
      maxInFlight: vars.BANK_MAX_IN_FLIGHT,
      ratePerSecond: vars.BANK_RATE_PER_SECOND,
    },
    sweepIntervalMs: vars.SWEEP_INTERVAL_MS,
    sweep: {
      batchSize: vars.SWEEP_BATCH_SIZE,
      concurrency: vars.SWEEP_CONCURRENCY,
      ...(vars.ACCOUNT_WEIGHTS !== undefined && { accountWeights: vars.ACCOUNT_WEIGHTS }),
    },
    adminRateLimitPerMinute: vars.ADMIN_RATE_LIMIT_PER_MINUTE,
    server,
    certificateWarningDays: vars.CERT_EXPIRY_WARNING_DAYS,
    ...(vars.ENCRYPTION_KEY !== undefined && { encryptionKey: vars.ENCRYPTION_KEY }),
    logLevel: vars.LOG_LEVEL,
    webhooks,
  };
}

/** ENCRYPTION_KEY's problems: required with a real bank, and a key when set (never shown). */
export function encryptionKeyProblems(key: string | undefined, sandbox: boolean): string[] {
  if (key === undefined) {
    return sandbox
      ? []
      : ['ENCRYPTION_KEY is required when BANK_BASE_URL is set: base64 of 32 bytes (openssl rand -base64 32)'];
  }
  return encryptionKeyFrom(key) === undefined
    ? ['ENCRYPTION_KEY must be base64 of 32 bytes (openssl rand -base64 32)']
    : [];
}

/**
 * DATABASE_URL alone (its default when unset or empty), for the commands that only open the database: `migrate`,
 * `keys`, `audit`. A ConfigError naming it when it is not a database URL.
 */
export function databaseUrlFromEnv(env: Record<string, string | undefined>): string {
  const text = env.DATABASE_URL;
  const url = text === undefined || text === '' ? VARIABLES.DATABASE_URL.default : text;
  const problems = databaseUrlProblems(url);
  if (problems.length > 0) throw new ConfigError(problems);
  return url;
}

/** What the module finds wrong with a database URL; its messages name DATABASE_URL, never the rest of the URL. */
function databaseUrlProblems(url: string): string[] {
  try {
    dataSourceOptionsFromUrl(url);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

function pollingSettings(vars: ReconcilerEnvironment, sandbox: boolean): PollingSettings {
  const defaults = sandbox ? DEMO_POLLING : SPEC_POLLING;
  const minIntervalMs = vars.POLL_MIN_INTERVAL_MS ?? defaults.minIntervalMs;
  return {
    minIntervalMs,
    delayedMinIntervalMs: vars.DELAYED_MIN_INTERVAL_MS ?? defaults.delayedMinIntervalMs,
    // The policy itself works out the default bound, so the figure shown is the one applied.
    maxJitterMs: vars.POLL_MAX_JITTER_MS ?? new PollingPolicy({ minIntervalMs }).maxJitterMs,
    scaledForDemo: sandbox && (vars.POLL_MIN_INTERVAL_MS === undefined || vars.DELAYED_MIN_INTERVAL_MS === undefined),
    allowBelowSpec: pollingBelowSpecAllowed(vars, sandbox),
  };
}

/**
 * The bank's variables (topic `bank`) without BANK_BASE_URL are a mistake, not a request for the sandbox: starting
 * the sandbox then would look like a working setup that sends nothing to the bank. (BANK_MAX_IN_FLIGHT and
 * BANK_RATE_PER_SECOND limit calls, which the sandbox bank gets too: their topic is the pace.)
 */
function variablesNeedingABank(vars: ReconcilerEnvironment): string[] {
  return (Object.keys(VARIABLES) as VariableName[])
    .filter((name) => VARIABLES[name].topic === 'bank' && vars[name] !== undefined)
    .map(
      (name) =>
        `${name} is set but BANK_BASE_URL is not: set BANK_BASE_URL, or unset the BANK_* variables to run against the sandbox bank`,
    );
}

/** Option names of the bank client, as its errors spell them, and the variable each one comes from. */
const OPTION_VARIABLES: [option: string, variable: string][] = [
  ['bank.baseUrl', 'BANK_BASE_URL'],
  ['bank.tls.caFile', 'BANK_CA_FILE'],
  ['bank.tls.ca', 'BANK_CA_FILE'],
  ['bank.tls.certFile', 'BANK_CERT_FILE'],
  ['bank.tls.cert', 'BANK_CERT_FILE'],
  ['bank.tls.keyFile', 'BANK_KEY_FILE'],
  ['bank.tls.key', 'BANK_KEY_FILE'],
  ['bank.tls.passphrase', 'BANK_KEY_PASSPHRASE'],
  ['bank.auth.scheme', 'BANK_AUTH_SCHEME'],
  ['bank.auth.token', 'BANK_TOKEN'],
  ['bank.auth.oauth2.tokenUrl', 'BANK_TOKEN_URL'],
  ['bank.auth.oauth2.clientId', 'BANK_CLIENT_ID'],
  ['bank.auth.oauth2.clientSecret', 'BANK_CLIENT_SECRET'],
  ['bank.hmac.secret', 'BANK_HMAC_SECRET'],
  ['bank.hmac.keyId', 'BANK_HMAC_KEY_ID'],
  ['bank.hmac.algorithm', 'BANK_HMAC_ALGORITHM'],
  ['bank.hmac.preset', 'BANK_HMAC_PRESET'],
  ['bank.hmac.headers.timestamp', 'BANK_HMAC_TIMESTAMP_HEADER'],
  ['bank.hmac.headers.signature', 'BANK_HMAC_SIGNATURE_HEADER'],
  ['bank.hmac.headers.keyId', 'BANK_HMAC_KEY_ID_HEADER'],
  ['bank.duplicateCodes', 'BANK_DUPLICATE_CODES'],
  ['bank.notFoundCodes', 'BANK_NOT_FOUND_CODES'],
  ['bank.proxyUrl', 'BANK_PROXY_URL'],
  ['bank.pathPrefix', 'BANK_PATH_PREFIX'],
  ['bank.debinIdField', 'BANK_DEBIN_ID_FIELD'],
  ['bank.timeouts', 'BANK_TIMEOUT_MS'],
];

/** Lets the bank client check what it will be given (files readable, key matches certificate…) right now. */
function checkBankOptions(options: BankClientOptions, problems: string[]): void {
  try {
    resolveBankClientOptions(options);
  } catch (error) {
    if (!(error instanceof BankOptionsError)) throw error;
    problems.push(withVariableNames(error.message));
  }
}

function withVariableNames(message: string): string {
  // Longest option names first, so `bank.tls.keyFile` is not read as `bank.tls.key` + "File".
  const byLength = [...OPTION_VARIABLES].sort(([a], [b]) => b.length - a.length);
  let named = message;
  for (const [option, variable] of byLength) named = named.split(option).join(variable);
  return named;
}
