import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { type BankClientOptions, PollingPolicy } from '@giro/transfer-module';
import { resolveTransferModuleOptions } from '@giro/transfer-module/options/transfer-module.options';
import { ManualClock } from '@giro/transfer-module/testing';
import { reconcilerConfigFromEnv } from './reconciler-config';
import { transferModuleOptions } from './transfer-module-options';
import { VARIABLES } from './variables';

const DEFAULT_BANK_MAX_IN_FLIGHT = VARIABLES.BANK_MAX_IN_FLIGHT.default;
const DEFAULT_SWEEP_BATCH_SIZE = VARIABLES.SWEEP_BATCH_SIZE.default;
const DEFAULT_SWEEP_CONCURRENCY = VARIABLES.SWEEP_CONCURRENCY.default;

let bank: BankClientOptions;

beforeAll(async () => {
  const certs = await createDevCertificates();
  bank = {
    baseUrl: 'https://bank.example',
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'a-token' },
  };
});

/** What the transfer module makes of the reconciler's configuration from `env` (sandbox mode). */
function resolvedFrom(env: Record<string, string>) {
  return resolveTransferModuleOptions(transferModuleOptions(reconcilerConfigFromEnv(env), bank));
}

describe('transferModuleOptions', () => {
  it('with nothing set, gives the module the same budget and sweep figures as its own defaults', () => {
    const fromReconciler = resolvedFrom({});
    const fromModule = resolveTransferModuleOptions({
      bank,
      polling: { ...fromReconciler.polling, allowBelowSpec: true },
    });
    expect(fromReconciler.budget).toEqual(fromModule.budget);
    expect(fromReconciler.sweep).toEqual(fromModule.sweep);
    expect(fromModule.budget).toEqual({ maxInFlight: DEFAULT_BANK_MAX_IN_FLIGHT });
    expect(fromModule.sweep).toMatchObject({
      batchSize: DEFAULT_SWEEP_BATCH_SIZE,
      concurrency: DEFAULT_SWEEP_CONCURRENCY,
    });
    // The demo's 1 s interval: the jitter bound is 10 % of it.
    expect(new PollingPolicy(fromReconciler.polling).maxJitterMs).toBe(100);
  });

  it('passes the TRANSFER_* rules on to the module', () => {
    const resolved = resolvedFrom({
      TRANSFER_CURRENCIES: '032,840',
      TRANSFER_CONCEPTS: 'VAR,ALQ',
      TRANSFER_MAX_AMOUNT: '1000',
      TRANSFER_MAX_DESCRIPTION_LENGTH: '50',
    });
    expect(resolved.transferRules).toEqual({
      currencies: ['032', '840'],
      concepts: ['VAR', 'ALQ'],
      maxAmount: '1000',
      maxDescriptionLength: 50,
    });
    expect(resolvedFrom({}).transferRules).toEqual({});
  });

  it('passes every polling, budget and sweep variable on to the module', () => {
    const resolved = resolvedFrom({
      POLL_MIN_INTERVAL_MS: '2000',
      DELAYED_MIN_INTERVAL_MS: '30000',
      POLL_MAX_JITTER_MS: '250',
      BANK_MAX_IN_FLIGHT: '4',
      BANK_RATE_PER_SECOND: '12.5',
      SWEEP_CONCURRENCY: '3',
      SWEEP_BATCH_SIZE: '500',
    });
    expect(resolved.polling).toEqual({ minIntervalMs: 2000, delayedMinIntervalMs: 30000, maxJitterMs: 250 });
    expect(new PollingPolicy(resolved.polling).maxJitterMs).toBe(250);
    expect(resolved.budget).toEqual({ maxInFlight: 4, ratePerSecond: 12.5 });
    expect(resolved.sweep).toMatchObject({ batchSize: 500, concurrency: 3 });
  });

  it('passes POLL_MAX_JITTER_MS=0 as no jitter, and no rate limit when BANK_RATE_PER_SECOND is unset', () => {
    const resolved = resolvedFrom({ POLL_MAX_JITTER_MS: '0', BANK_MAX_IN_FLIGHT: '16' });
    expect(new PollingPolicy(resolved.polling).maxJitterMs).toBe(0);
    expect(resolved.budget).toEqual({ maxInFlight: 16 });
  });

  it('lets the module accept the scaled-down intervals of sandbox mode, and refuse them otherwise', () => {
    expect(resolvedFrom({}).polling).toMatchObject({ minIntervalMs: 1_000 });
    const config = reconcilerConfigFromEnv({});
    const strict = transferModuleOptions({ ...config, polling: { ...config.polling, allowBelowSpec: false } }, bank);
    expect(() => resolveTransferModuleOptions(strict)).toThrow(
      /polling\.minIntervalMs is 1000 ms, below the bank's minimum/,
    );
  });

  it('leaves to the module what a hand-built configuration leaves out, and passes the clock', () => {
    const config = reconcilerConfigFromEnv({});
    const clock = new ManualClock(0);
    const options = transferModuleOptions(
      {
        ...config,
        polling: { minIntervalMs: 5000, delayedMinIntervalMs: 600000, scaledForDemo: false, allowBelowSpec: false },
      },
      bank,
      clock,
    );
    expect(options.polling).toEqual({ minIntervalMs: 5000, delayedMinIntervalMs: 600000 });
    expect(options.clock).toBe(clock);
    const { bankCalls: _bankCalls, sweep: _sweep, ...bare } = config;
    const resolved = resolveTransferModuleOptions(transferModuleOptions(bare, bank));
    expect(resolved.budget).toEqual({ maxInFlight: DEFAULT_BANK_MAX_IN_FLIGHT });
    expect(resolved.sweep).toMatchObject({ batchSize: DEFAULT_SWEEP_BATCH_SIZE });
  });
});
