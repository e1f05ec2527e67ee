import { HMAC_PRESETS, type HmacPreset, MAX_BATCH_SIZE } from '@giro/transfer-module';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The module's bound on sweep.concurrency. */
const MAX_SWEEP_CONCURRENCY = 1000;

/**
 * The reconciler's environment variables (the table in apps/reconciler/README.md), one property per variable,
 * so every class-validator message starts with the variable's name. Rules that join several variables live in
 * `reconciler-config.ts`.
 */
export class ReconcilerEnvironment {
  @IsOptional()
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_tld: false },
    { message: '$property must be an https URL, e.g. https://bank.example.com' },
  )
  BANK_BASE_URL?: string;

  @IsOptional() @IsString() BANK_CA_FILE?: string;
  @IsOptional() @IsString() BANK_CERT_FILE?: string;
  @IsOptional() @IsString() BANK_KEY_FILE?: string;
  @IsOptional() @IsString() BANK_KEY_PASSPHRASE?: string;
  @IsOptional() @IsString() BANK_TOKEN?: string;

  @IsOptional()
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_tld: false },
    { message: '$property must be an https URL' },
  )
  BANK_TOKEN_URL?: string;

  @IsOptional() @IsString() BANK_CLIENT_ID?: string;
  @IsOptional() @IsString() BANK_CLIENT_SECRET?: string;
  @IsOptional() @IsString() BANK_AUTH_SCHEME?: string;
  @IsOptional() @IsString() BANK_HMAC_SECRET?: string;
  @IsOptional() @IsString() BANK_HMAC_KEY_ID?: string;

  @IsOptional()
  @IsIn(['sha256', 'sha512'], { message: '$property must be sha256 or sha512' })
  BANK_HMAC_ALGORITHM?: 'sha256' | 'sha512';

  /** The signing scheme and its header names (the bank client checks the names: bank-environment.ts). */
  @IsOptional()
  @IsIn(HMAC_PRESETS, { message: `$property must be one of ${HMAC_PRESETS.join(', ')}` })
  BANK_HMAC_PRESET?: HmacPreset;

  @IsOptional() @IsString() BANK_HMAC_TIMESTAMP_HEADER?: string;
  @IsOptional() @IsString() BANK_HMAC_SIGNATURE_HEADER?: string;
  @IsOptional() @IsString() BANK_HMAC_KEY_ID_HEADER?: string;

  /** The accounts giro may send from, `address:ownerPersonId,…` (source-accounts-environment.ts). */
  @IsOptional() @IsString() SOURCE_ACCOUNTS?: string;

  /** `true`: PSP mode, sending from registered client sub-accounts too (/admin/sub-accounts). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: '$property must be true or false' })
  PSP_MODE?: 'true' | 'false';

  /** The transfer rules the bank leaves open (transfer-rules-environment.ts checks them with the module's rules). */
  @IsOptional() @IsString() TRANSFER_CURRENCIES?: string;
  @IsOptional() @IsString() TRANSFER_CONCEPTS?: string;
  @IsOptional() @IsString() TRANSFER_MAX_AMOUNT?: string;

  /** Limits per source account: the default for all, and some accounts' own (limits-environment.ts checks them). */
  @IsOptional() @IsString() LIMIT_PER_TRANSFER?: string;
  @IsOptional() @IsString() LIMIT_DAILY_AMOUNT?: string;
  @IsOptional() @IsString() LIMIT_DAILY_COUNT?: string;
  @IsOptional() @IsString() SOURCE_ACCOUNT_LIMITS?: string;

  /** Maker–checker: transfers above this amount wait for an approver, at most this long (approvals-environment.ts). */
  @IsOptional() @IsString() APPROVAL_REQUIRED_ABOVE?: string;
  @IsOptional() @IsString() APPROVAL_EXPIRES_AFTER?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of characters ≥ 1' })
  @Min(1, { message: '$property must be a whole number of characters ≥ 1' })
  TRANSFER_MAX_DESCRIPTION_LENGTH?: number;

  /** Comma-separated 409 codes meaning "this originId was already processed". */
  @IsOptional() @IsString() BANK_DUPLICATE_CODES?: string;

  /** The bank client's options the bank leaves open (bank-environment.ts). */
  @IsOptional()
  @IsUrl(
    { protocols: ['http'], require_protocol: true, require_tld: false },
    { message: '$property must be the http URL of a forward proxy (CONNECT tunnel), e.g. http://proxy.internal:3128' },
  )
  BANK_PROXY_URL?: string;

  @IsOptional() @IsString() BANK_PATH_PREFIX?: string;
  /** Comma-separated error codes meaning "no such movement" on get-movement. */
  @IsOptional() @IsString() BANK_NOT_FOUND_CODES?: string;
  @IsOptional() @IsString() BANK_DEBIN_ID_FIELD?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds between 100 and 600000' })
  @Min(100, { message: '$property must be a whole number of milliseconds between 100 and 600000' })
  @Max(600_000, { message: '$property must be a whole number of milliseconds between 100 and 600000' })
  BANK_TIMEOUT_MS?: number;

  @IsOptional() @IsString() DATABASE_URL?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds between 0 and 3600000' })
  @Min(0, { message: '$property must be a whole number of milliseconds between 0 and 3600000' })
  @Max(3_600_000, { message: '$property must be a whole number of milliseconds between 0 and 3600000' })
  DATABASE_START_TIMEOUT_MS?: number;

  @IsOptional()
  @MinLength(16, { message: '$property must be at least 16 characters long' })
  ADMIN_TOKEN?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be an integer between 0 and 65535' })
  @Min(0, { message: '$property must be an integer between 0 and 65535' })
  @Max(65_535, { message: '$property must be an integer between 0 and 65535' })
  PORT?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds ≥ 1' })
  @Min(1, { message: '$property must be a whole number of milliseconds ≥ 1' })
  POLL_MIN_INTERVAL_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds ≥ 1' })
  @Min(1, { message: '$property must be a whole number of milliseconds ≥ 1' })
  DELAYED_MIN_INTERVAL_MS?: number;

  /** `true`: intervals below the bank's minimums are accepted with a real bank (polling-floor.ts). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: '$property must be true or false' })
  ALLOW_POLLING_BELOW_SPEC?: 'true' | 'false';

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds ≥ 0' })
  @Min(0, { message: '$property must be a whole number of milliseconds ≥ 0' })
  POLL_MAX_JITTER_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of bank calls ≥ 1' })
  @Min(1, { message: '$property must be a whole number of bank calls ≥ 1' })
  BANK_MAX_IN_FLIGHT?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: '$property must be a number of bank calls per second > 0, e.g. 0.5 or 20' },
  )
  @IsPositive({ message: '$property must be a number of bank calls per second > 0, e.g. 0.5 or 20' })
  BANK_RATE_PER_SECOND?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `$property must be a whole number of movements between 1 and ${MAX_SWEEP_CONCURRENCY}` })
  @Min(1, { message: `$property must be a whole number of movements between 1 and ${MAX_SWEEP_CONCURRENCY}` })
  @Max(MAX_SWEEP_CONCURRENCY, {
    message: `$property must be a whole number of movements between 1 and ${MAX_SWEEP_CONCURRENCY}`,
  })
  SWEEP_CONCURRENCY?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `$property must be a whole number of movements between 1 and ${MAX_BATCH_SIZE}` })
  @Min(1, { message: `$property must be a whole number of movements between 1 and ${MAX_BATCH_SIZE}` })
  @Max(MAX_BATCH_SIZE, { message: `$property must be a whole number of movements between 1 and ${MAX_BATCH_SIZE}` })
  SWEEP_BATCH_SIZE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds between 100 and 3600000' })
  @Min(100, { message: '$property must be a whole number of milliseconds between 100 and 3600000' })
  @Max(3_600_000, { message: '$property must be a whole number of milliseconds between 100 and 3600000' })
  SWEEP_INTERVAL_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of requests between 1 and 1000000' })
  @Min(1, { message: '$property must be a whole number of requests between 1 and 1000000' })
  @Max(1_000_000, { message: '$property must be a whole number of requests between 1 and 1000000' })
  ADMIN_RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `$property must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: LogLevel;

  // The HTTP server (server-environment.ts checks how they go together).
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsString() TRUST_PROXY?: string;
  @IsOptional() @IsString() ADMIN_TLS_CERT_FILE?: string;
  @IsOptional() @IsString() ADMIN_TLS_KEY_FILE?: string;

  @IsOptional()
  @MinLength(16, { message: '$property must be at least 16 characters long' })
  METRICS_TOKEN?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of requests between 1 and 1000000' })
  @Min(1, { message: '$property must be a whole number of requests between 1 and 1000000' })
  @Max(1_000_000, { message: '$property must be a whole number of requests between 1 and 1000000' })
  ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE?: number;

  // Webhooks (webhook-environment.ts checks the URL, the secret, the event types and the retry delays).
  @IsOptional() @IsString() WEBHOOK_URL?: string;
  @IsOptional() @IsString() WEBHOOK_SECRET?: string;
  @IsOptional() @IsString() WEBHOOK_EVENT_TYPES?: string;
  @IsOptional() @IsString() WEBHOOK_RETRY_DELAYS?: string;
  @IsOptional() @IsString() WEBHOOK_RETENTION?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: '$property must be true or false' })
  WEBHOOK_ALLOW_LOOPBACK?: 'true' | 'false';

  @IsOptional()
  @IsIn(['true', 'false'], { message: '$property must be true or false' })
  WEBHOOK_ALLOW_PRIVATE?: 'true' | 'false';

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of milliseconds between 100 and 60000' })
  @Min(100, { message: '$property must be a whole number of milliseconds between 100 and 60000' })
  @Max(60_000, { message: '$property must be a whole number of milliseconds between 100 and 60000' })
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '$property must be a whole number of deliveries between 1 and 1000' })
  @Min(1, { message: '$property must be a whole number of deliveries between 1 and 1000' })
  @Max(1000, { message: '$property must be a whole number of deliveries between 1 and 1000' })
  WEBHOOK_MAX_IN_FLIGHT?: number;
}

export type EnvironmentResult = { ok: true; environment: ReconcilerEnvironment } | { ok: false; problems: string[] };

/**
 * Reads the reconciler's variables out of `env` (anything else is ignored). An empty value counts as unset,
 * as in a `.env` line `BANK_BASE_URL=`. Messages name the variable and never show a value.
 */
export function readEnvironment(env: Record<string, string | undefined>): EnvironmentResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const environment = plainToInstance(ReconcilerEnvironment, present);
  const errors = validateSync(environment, { whitelist: true, validationError: { target: false, value: false } });
  if (errors.length > 0) {
    return { ok: false, problems: errors.flatMap((error) => Object.values(error.constraints ?? {}).slice(0, 1)) };
  }
  return { ok: true, environment };
}
