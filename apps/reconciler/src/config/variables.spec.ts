import {
  SWEEP_OPTIONS,
  TRANSFER_MODULE_OPTIONS,
  WEBHOOK_OPTIONS,
} from '@giro/transfer-module/options/option-declarations';
import { serviceBanner } from '../start-banner';
import { formatDuration, parseDuration } from './durations';
import { readEnvironment } from './environment';
import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';
import { TOPICS, type Variable } from './variable-kinds';
import { defaultText, variableTable } from './variable-table';
import { VARIABLES } from './variables';

type Bounded = Variable<unknown> & { min?: number | string; max?: number | string };
const declared = Object.entries(VARIABLES) as [string, Bounded][];
const secrets = declared.filter(([, variable]) => variable.secret);

function problemsOf(env: Record<string, string>): string[] {
  try {
    reconcilerConfigFromEnv(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [error.message, ...error.problems];
    throw error;
  }
}

describe('the declared variables', () => {
  it.each(declared)('%s is documented: a topic, a kind, one line, what unset means', (_name, variable) => {
    expect(Object.keys(TOPICS)).toContain(variable.topic);
    expect(variable.kind).not.toBe('');
    expect(variable.doc).toMatch(/^\S[^\n]*\S$/);
    expect(variable.default !== undefined || variable.unset !== undefined).toBe(true);
  });

  it('are the documented names, each once (programs outside this repository set them)', () => {
    const names = declared.map(([name]) => name);
    expect(names.length).toBeGreaterThanOrEqual(64);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  const bounded = declared.filter(([, variable]) => variable.min !== undefined || variable.max !== undefined);
  it.each(bounded)('%s keeps to its bounds, naming the variable', (name, variable) => {
    // A duration's bounds are written as durations (`1h`); every bound is tried as a number of milliseconds.
    const [min, max] = [variable.min, variable.max].map((bound) =>
      typeof bound === 'string' ? parseDuration(bound) : bound,
    );
    const refused = [min === undefined ? undefined : min - 1, max === undefined ? undefined : max + 1, 'ten', '1.5'];
    for (const value of refused.filter((value) => value !== undefined)) {
      const read = readEnvironment({ [name]: String(value) });
      expect(read).toEqual({ ok: false, problems: [expect.stringMatching(new RegExp(`^${name} (must be|item 1) `))] });
    }
    for (const [written, value] of [
      [variable.min, min],
      [variable.max, max],
    ].filter(([written]) => written !== undefined)) {
      const read = readEnvironment({ [name]: String(written) });
      const expected = variable.kind.startsWith('durations') ? [value] : value;
      expect(read.ok && read.environment[name as keyof typeof read.environment]).toEqual(expected);
    }
  });

  it('give every defaulted variable its default when unset or empty', () => {
    const read = readEnvironment({ PORT: '' });
    if (!read.ok) throw new Error(read.problems.join());
    for (const [name, variable] of declared) {
      expect(read.environment[name as keyof typeof read.environment]).toEqual(variable.default);
    }
  });
});

describe("the bank's variables (topic bank)", () => {
  const valid: Record<string, string> = {
    BANK_TOKEN_URL: 'https://bank.example.com/token',
    BANK_PROXY_URL: 'http://proxy.internal:3128',
    BANK_HMAC_ALGORITHM: 'sha512',
    BANK_HMAC_PRESET: 'single-header',
    BANK_TIMEOUT_MS: '1000',
  };
  const bankOnly = declared.filter(([name, variable]) => variable.topic === 'bank' && name !== 'BANK_BASE_URL');

  it.each(bankOnly)('%s without BANK_BASE_URL is refused, not taken for sandbox mode', (name) => {
    expect(problemsOf({ [name]: valid[name] ?? 'x' })).toContain(
      `${name} is set but BANK_BASE_URL is not: set BANK_BASE_URL, or unset the BANK_* variables to run against the sandbox bank`,
    );
  });

  it("leave out BANK_MAX_IN_FLIGHT and BANK_RATE_PER_SECOND, which limit the sandbox bank's calls too", () => {
    expect(problemsOf({ BANK_MAX_IN_FLIGHT: '2', BANK_RATE_PER_SECOND: '5' })).toEqual([]);
  });
});

describe("the variables that set the module's options", () => {
  // The module's declarations are not on its public surface, so the table repeats these bounds and defaults.
  const code = (value: number) => `\`${value}\``;
  it.each([
    ['DATABASE_START_TIMEOUT_MS', TRANSFER_MODULE_OPTIONS.databaseStartTimeoutMs],
    ['DATABASE_POOL_SIZE', TRANSFER_MODULE_OPTIONS.databasePoolSize],
    ['SWEEP_BATCH_SIZE', SWEEP_OPTIONS.batchSize],
    ['SWEEP_CONCURRENCY', SWEEP_OPTIONS.concurrency],
    ['WEBHOOK_TIMEOUT_MS', WEBHOOK_OPTIONS.timeoutMs],
    ['WEBHOOK_MAX_IN_FLIGHT', WEBHOOK_OPTIONS.maxInFlight],
  ] as const)('%s keeps to the bounds and default of its option', (name, option) => {
    const variable = VARIABLES[name] as Bounded;
    expect([variable.min, variable.max]).toEqual([option.min, option.max]);
    expect(defaultText(variable)).toBe(code(option.default));
  });

  it('WEBHOOK_RETENTION keeps to the bounds and default of webhooks.retentionMs', () => {
    const { min, max } = VARIABLES.WEBHOOK_RETENTION as Bounded;
    expect([parseDuration(String(min)), parseDuration(String(max))]).toEqual([
      WEBHOOK_OPTIONS.retentionMs.min,
      WEBHOOK_OPTIONS.retentionMs.max,
    ]);
    expect(defaultText(VARIABLES.WEBHOOK_RETENTION)).toBe(`\`${formatDuration(WEBHOOK_OPTIONS.retentionMs.default)}\``);
  });
});

describe('a secret', () => {
  it('is declared for every credential', () => {
    expect(secrets.map(([name]) => name).sort()).toEqual([
      'ADMIN_TOKEN',
      'AUDIT_HMAC_KEY',
      'BANK_CLIENT_SECRET',
      'BANK_HMAC_SECRET',
      'BANK_KEY_PASSPHRASE',
      'BANK_TOKEN',
      'ENCRYPTION_KEY',
      'METRICS_TOKEN',
      'WEBHOOK_SECRET',
    ]);
  });

  it.each(secrets)('%s has no default value, so the table never shows one', (_name, variable) => {
    expect(variable.default).toBeUndefined();
    expect(defaultText(variable)).toBe(variable.unset);
  });

  it.each(secrets)('%s is never printed in a problem, whatever rule its value breaks', (name) => {
    const value = 'short-Zq9';
    const scenarios = [
      { [name]: value }, // too short, or a bank variable without BANK_BASE_URL
      { [name]: value, BANK_BASE_URL: 'https://bank.example.com' }, // with a bank, missing everything else
      { [name]: value, WEBHOOK_URL: 'https://hooks.example.com/giro' }, // not a webhook secret
    ];
    for (const env of scenarios) {
      const problems = problemsOf(env);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join('\n')).not.toContain(value);
    }
  });

  it('is never printed in the banner', () => {
    const env = {
      ADMIN_TOKEN: 'admin-token-Zq9-of-16',
      METRICS_TOKEN: 'metrics-token-Zq9-16',
      WEBHOOK_URL: 'https://hooks.example.com/giro',
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    };
    const banner = serviceBanner('http://127.0.0.1:3000', reconcilerConfigFromEnv(env));
    for (const value of [env.ADMIN_TOKEN, env.METRICS_TOKEN, env.WEBHOOK_SECRET]) expect(banner).not.toContain(value);
    expect(variableTable()).not.toContain('Zq9');
  });
});
