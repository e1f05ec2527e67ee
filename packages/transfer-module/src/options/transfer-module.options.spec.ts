import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import type { BankClientOptions } from '../bank';
import { ManualClock } from '../domain';
import {
  resolveTransferModuleOptions,
  type TransferModuleOptions,
  TransferModuleOptionsError,
} from './transfer-module.options';

let certs: DevCertificates;
let bank: BankClientOptions;

beforeAll(async () => {
  certs = await createDevCertificates();
  bank = {
    baseUrl: 'https://bank.example',
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'a-token' },
    timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 3_000 },
  };
});

function refusal(options: unknown): string {
  try {
    resolveTransferModuleOptions(options as TransferModuleOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TransferModuleOptionsError);
    return (error as Error).message;
  }
  throw new Error('expected the options to be refused');
}

describe('resolveTransferModuleOptions', () => {
  it('applies the defaults, sharing the clock with the bank client', () => {
    const clock = new ManualClock(0);
    const resolved = resolveTransferModuleOptions({ bank, clock });
    expect(resolved).toMatchObject({
      runMigrations: false,
      budget: { maxInFlight: 8 },
      sweep: { batchSize: 100, concurrency: 8, leaseMs: 2 * (6_000 + 5_000) },
      callGuardMs: 6_000 + 5_000, // the longest bank call + the polling interval
      clock,
    });
    expect(resolved.bank.clock).toBe(clock);
  });

  // Functions: `bank` is only known once beforeAll ran.
  it.each([
    [/option bank is required/, () => ({})],
    [/option colour is not an option/, () => ({ bank, colour: 'blue' })],
    [/option dataSourceName must be given to forRootAsync beside useFactory/, () => ({ bank, dataSourceName: 'giro' })],
    [/option bank\.baseUrl must be an https URL/, () => ({ bank: { ...bank, baseUrl: 'http://bank.example' } })],
    [/option databaseUrl: .*scheme "mysql:"/, () => ({ bank, databaseUrl: 'mysql://db' })],
    [/option runMigrations must be true or false/, () => ({ bank, runMigrations: 'yes' })],
    [/option polling: .*"minIntervalMs"/, () => ({ bank, polling: { minIntervalMs: -1 } })],
    [/option budget\.maxInFlight must be/, () => ({ bank, budget: { maxInFlight: 0 } })],
    [/option sweep\.batchSize must be an integer from 1 to 1000/, () => ({ bank, sweep: { batchSize: 5000 } })],
    [
      /option sweep\.leaseMs must exceed the longest bank call plus polling\.minIntervalMs \(11000 ms\)/,
      () => ({ bank, sweep: { leaseMs: 10_000 } }),
    ],
    [/option transferRules: amount rule "max"/, () => ({ bank, transferRules: { maxAmount: 'lots' } })],
    [/option clock must have a now\(\) method/, () => ({ bank, clock: {} })],
  ])('refuses bad options, saying %s', (message, options) => {
    expect(refusal(options())).toMatch(message);
  });

  it('never puts a secret in its messages', () => {
    const message = refusal({ bank: { ...bank, auth: { token: 'super-secret-token', scheme: 'two words' } } });
    expect(message).toMatch(/bank\.auth\.scheme/);
    expect(message).not.toContain('super-secret-token');
  });
});
