import { applyConfigPatch, DEFAULT_SANDBOX_CONFIG, type SandboxConfigPatch } from './sandbox-config';
import type { SandboxCredentials } from './sandbox-credentials';

/** How `pnpm sandbox` is configured: the environment variables, read once at start. */
export interface SandboxProcessOptions {
  port: number;
  host: string;
  credentials: Partial<SandboxCredentials>;
  config: SandboxConfigPatch;
}

export const DEFAULT_SANDBOX_PORT = 8443;

const CREDENTIAL_VARIABLES = {
  SANDBOX_TOKEN: 'token',
  SANDBOX_CLIENT_ID: 'clientId',
  SANDBOX_CLIENT_SECRET: 'clientSecret',
  SANDBOX_HMAC_SECRET: 'hmacSecret',
  SANDBOX_AUTH_SCHEME: 'authScheme',
} as const;

/** Variables holding a number of milliseconds, by the configuration field they set. */
const DURATION_VARIABLES = {
  SANDBOX_CREATED_MS: ['timings', 'createdMs'],
  SANDBOX_IN_PROGRESS_MS: ['timings', 'inProgressMs'],
  SANDBOX_DELAYED_MS: ['timings', 'delayedMs'],
  SANDBOX_POLL_MIN_INTERVAL_MS: ['polling', 'minIntervalMs'],
  SANDBOX_DELAYED_MIN_INTERVAL_MS: ['polling', 'delayedMinIntervalMs'],
} as const;

/** Variables of the HMAC scheme the API requires (docs/bank-api.md#the-default-hmac-scheme), by its field. */
const HMAC_VARIABLES = {
  SANDBOX_HMAC_PRESET: 'preset',
  SANDBOX_HMAC_KEY_ID: 'keyId',
  SANDBOX_HMAC_TIMESTAMP_HEADER: 'timestampHeader',
  SANDBOX_HMAC_SIGNATURE_HEADER: 'signatureHeader',
  SANDBOX_HMAC_KEY_ID_HEADER: 'keyIdHeader',
} as const;

export class SandboxEnvError extends Error {
  override readonly name = 'SandboxEnvError';

  constructor(readonly problems: string[]) {
    super(`invalid sandbox environment: ${problems.join('; ')}`);
  }
}

/**
 * Reads SANDBOX_* variables (see the app README). Throws SandboxEnvError naming every bad variable
 * and its rule; a secret's value is never part of a message.
 */
export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv): SandboxProcessOptions {
  const problems: string[] = [];
  const integer = (name: string, min: number, max: number): number | undefined => {
    const text = env[name];
    if (text === undefined) return undefined;
    const value = Number(text);
    if (/^[0-9]+$/.test(text) && value >= min && value <= max) return value;
    problems.push(`${name} must be an integer between ${min} and ${max}`);
    return undefined;
  };

  const credentials: Partial<SandboxCredentials> = {};
  for (const [name, field] of Object.entries(CREDENTIAL_VARIABLES)) {
    const value = env[name];
    if (value === undefined) continue;
    if (value.trim() === '') problems.push(`${name} must not be empty`);
    else credentials[field] = value;
  }
  const ttl = integer('SANDBOX_TOKEN_TTL_SECONDS', 1, 86_400 * 365);
  if (ttl !== undefined) credentials.tokenTtlSeconds = ttl;

  const config: SandboxConfigPatch = {};
  for (const [name, [group, field]] of Object.entries(DURATION_VARIABLES)) {
    const value = integer(name, 0, Number.MAX_SAFE_INTEGER);
    if (value !== undefined) config[group] = { ...config[group], [field]: value };
  }
  const lag = integer('SANDBOX_REGISTRATION_LAG_MS', 0, Number.MAX_SAFE_INTEGER);
  if (lag !== undefined) config.registrationLagMs = lag;
  const seed = integer('SANDBOX_SEED', 0, 0xffff_ffff);
  if (seed !== undefined) config.seed = seed;
  if (env.SANDBOX_DUPLICATE_MODE !== undefined) {
    config.duplicateMode = env.SANDBOX_DUPLICATE_MODE as SandboxConfigPatch['duplicateMode'];
  }
  for (const [name, field] of Object.entries(HMAC_VARIABLES)) {
    if (env[name] !== undefined) config.hmac = { ...config.hmac, [field]: env[name] };
  }
  if (env.SANDBOX_FAULTS !== undefined) {
    try {
      config.faults = JSON.parse(env.SANDBOX_FAULTS);
    } catch {
      problems.push('SANDBOX_FAULTS must be a JSON object, e.g. {"serverErrorRate":0.1}');
    }
  }
  const checked = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, config);
  if (!checked.ok)
    problems.push(...checked.violations.map((violation) => `${variableOf(violation.field)}: ${violation.message}`));

  const port = integer('SANDBOX_PORT', 0, 65_535) ?? DEFAULT_SANDBOX_PORT;
  if (problems.length) throw new SandboxEnvError(problems);
  return { port, host: env.SANDBOX_HOST || '127.0.0.1', credentials, config };
}

function variableOf(field: string): string {
  if (field.startsWith('faults')) return 'SANDBOX_FAULTS';
  if (field === 'duplicateMode') return 'SANDBOX_DUPLICATE_MODE';
  const hmac = Object.entries(HMAC_VARIABLES).find(([, name]) => `hmac.${name}` === field);
  if (hmac) return hmac[0];
  const entry = Object.entries(DURATION_VARIABLES).find(([, path]) => path.join('.') === field);
  return entry ? entry[0] : field;
}
