import { resolveWebhookOptions } from '@giro/transfer-module/options/webhook-options';
import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';
import { transferModuleOptions } from './transfer-module-options';

// WEBHOOK_* (apps/reconciler/README.md): the module's `webhooks` option, always given, and the environment's one
// endpoint. Sandbox mode here (BANK_BASE_URL unset) unless a test says otherwise.

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const URL = 'https://hooks.example.com/giro';
const BANK = { baseUrl: 'https://bank.example', tls: {}, auth: { token: 'a-token' } };

function problemsOf(env: Record<string, string>): string[] {
  try {
    reconcilerConfigFromEnv(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

/** The problems of `env` with a real bank (the bank's own variables are not at issue: only webhook ones kept). */
function problemsWithBank(env: Record<string, string>): string[] {
  return problemsOf({ BANK_BASE_URL: 'https://bank.example', ...env }).filter((problem) =>
    problem.startsWith('WEBHOOK_'),
  );
}

describe('WEBHOOK_* variables', () => {
  it('always give the module webhooks: loopback receivers allowed in sandbox mode (with a bank: below), no environment endpoint', () => {
    const sandbox = reconcilerConfigFromEnv({}).webhooks;
    expect(sandbox).toEqual({ options: { allowLoopback: true, allowPrivate: false } });
    const resolved = resolveWebhookOptions(transferModuleOptions(reconcilerConfigFromEnv({}), BANK).webhooks);
    expect(resolved).toMatchObject({ allowLoopback: true, allowPrivate: false, maxInFlight: 64 });
    expect(reconcilerConfigFromEnv({ WEBHOOK_ALLOW_LOOPBACK: 'false' }).webhooks?.options.allowLoopback).toBe(false);
  });

  it('read the endpoint, its event types and every delivery setting', () => {
    const webhooks = reconcilerConfigFromEnv({
      WEBHOOK_URL: URL,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_EVENT_TYPES: 'transfer.completed, transfer.failed,transfer.completed',
      WEBHOOK_ALLOW_LOOPBACK: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_RETRY_DELAYS: '5s,30s,2m,1h,1d,750',
      WEBHOOK_MAX_IN_FLIGHT: '16',
      WEBHOOK_RETENTION: '7d',
    }).webhooks;
    expect(webhooks).toEqual({
      options: {
        allowLoopback: false,
        allowPrivate: true,
        timeoutMs: 2500,
        maxInFlight: 16,
        retryDelaysMs: [5_000, 30_000, 120_000, 3_600_000, 86_400_000, 750],
        retentionMs: 7 * 86_400_000,
      },
      environmentEndpoint: { url: URL, secret: SECRET, eventTypes: ['transfer.completed', 'transfer.failed'] },
    });
    // The module takes them as they are.
    const resolved = resolveWebhookOptions(webhooks?.options);
    expect(resolved).toMatchObject({ timeoutMs: 2500, maxInFlight: 16, allowPrivate: true });
  });

  it('take WEBHOOK_URL and WEBHOOK_SECRET together, and WEBHOOK_EVENT_TYPES only with them', () => {
    expect(problemsOf({ WEBHOOK_URL: URL })).toEqual([
      'WEBHOOK_SECRET is required with WEBHOOK_URL: set both, or neither',
    ]);
    expect(problemsOf({ WEBHOOK_SECRET: SECRET })).toEqual([
      'WEBHOOK_URL is required with WEBHOOK_SECRET: set both, or neither',
    ]);
    expect(problemsOf({ WEBHOOK_EVENT_TYPES: 'transfer.completed' })).toEqual([
      'WEBHOOK_EVENT_TYPES is set but WEBHOOK_URL is not: it chooses the events of that endpoint',
    ]);
  });

  it('name WEBHOOK_SECRET when it is not a Standard Webhooks secret, never showing it', () => {
    for (const secret of [
      'hunter2-hunter2-hunter2',
      'whsec_not base64!',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
    ]) {
      const problems = problemsOf({ WEBHOOK_URL: URL, WEBHOOK_SECRET: secret });
      expect(problems).toEqual([expect.stringMatching(/^WEBHOOK_SECRET must /)]);
      expect(problems.join()).not.toContain(secret);
    }
  });

  it('name WEBHOOK_URL when it is not a safe target under the WEBHOOK_ALLOW_* rules, never showing it', () => {
    const with_ = (url: string, env: Record<string, string> = {}) =>
      problemsWithBank({ WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, ...env });
    expect(with_('not-a-url')).toEqual(['WEBHOOK_URL must be an absolute URL']);
    expect(with_('https://hooks.example.com/gi\nro')).toEqual([
      'WEBHOOK_URL must not contain spaces or control characters, found U+000A at position 29',
    ]);
    expect(with_('https://[64:ff9b::a9fe:a9fe]/')).toEqual([
      expect.stringMatching(/^WEBHOOK_URL names an address that is a private/),
    ]);
    expect(with_('http://hooks.example.com/giro')).toEqual([
      expect.stringMatching(/^WEBHOOK_URL must be an https URL/),
    ]);
    expect(with_('http://127.0.0.1:9000/hooks')).toEqual([expect.stringMatching(/^WEBHOOK_URL must be an https URL/)]);
    expect(with_('http://127.0.0.1:9000/hooks', { WEBHOOK_ALLOW_LOOPBACK: 'true' })).toEqual([]);
    const privateUrl = with_('https://10.1.2.3/hooks');
    expect(privateUrl).toEqual([
      expect.stringMatching(/^WEBHOOK_URL names an address that is a private .*WEBHOOK_ALLOW_PRIVATE=true/),
    ]);
    expect(privateUrl.join()).not.toContain('10.1.2.3');
    expect(with_('https://10.1.2.3/hooks', { WEBHOOK_ALLOW_PRIVATE: 'true' })).toEqual([]);
    expect(with_('https://user:pw@hooks.example.com/')).toEqual(['WEBHOOK_URL must not hold a user name or password']);
  });

  it('name WEBHOOK_EVENT_TYPES and the item that is not an event type', () => {
    expect(
      problemsOf({ WEBHOOK_URL: URL, WEBHOOK_SECRET: SECRET, WEBHOOK_EVENT_TYPES: 'transfer.completed,transfer.done' }),
    ).toEqual([expect.stringMatching(/^WEBHOOK_EVENT_TYPES item 2 is not an event type: .*transfer\.failed/)]);
    expect(problemsOf({ WEBHOOK_URL: URL, WEBHOOK_SECRET: SECRET, WEBHOOK_EVENT_TYPES: 'webhook.test' })).toEqual([
      expect.stringMatching(/^WEBHOOK_EVENT_TYPES item 1 is not an event type/),
    ]);
  });

  it.each([
    [{ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK must be true or false'],
    [{ WEBHOOK_ALLOW_PRIVATE: '1' }, 'WEBHOOK_ALLOW_PRIVATE must be true or false'],
    [{ WEBHOOK_TIMEOUT_MS: '50' }, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'],
    [{ WEBHOOK_TIMEOUT_MS: '1.5' }, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'],
    [{ WEBHOOK_MAX_IN_FLIGHT: '0' }, 'WEBHOOK_MAX_IN_FLIGHT must be a whole number of deliveries between 1 and 1000'],
    [
      { WEBHOOK_MAX_IN_FLIGHT: '5000' },
      'WEBHOOK_MAX_IN_FLIGHT must be a whole number of deliveries between 1 and 1000',
    ],
  ])('name the variable of a bad value: %j', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it.each([
    ['5s,soon', /^WEBHOOK_RETRY_DELAYS item 2 is not a duration: a comma-separated list of at most 50 waits/],
    ['5s,,2m', /^WEBHOOK_RETRY_DELAYS item 2 is not a duration/],
    ['5s,0', /^WEBHOOK_RETRY_DELAYS item 2 is out of range/],
    ['8d', /^WEBHOOK_RETRY_DELAYS item 1 is out of range/],
    [Array(51).fill('1s').join(','), /^WEBHOOK_RETRY_DELAYS has 51 waits/],
  ])('name WEBHOOK_RETRY_DELAYS and its bad item: %s', (value, problem) => {
    expect(problemsOf({ WEBHOOK_RETRY_DELAYS: value })).toEqual([expect.stringMatching(problem)]);
  });

  it.each(['30m', 'forever', '3651d'])('name WEBHOOK_RETENTION and its rule: %s', (value) => {
    expect(problemsOf({ WEBHOOK_RETENTION: value })).toEqual([
      'WEBHOOK_RETENTION must be a duration from 1h to 3650d, a whole number with a unit (ms, s, m, h, d) or of milliseconds, e.g. 30d',
    ]);
  });
});
