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
      databaseStartTimeoutMs: 60_000,
      databasePoolSize: 10,
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
    [
      /option databaseStartTimeoutMs must be an integer from 0 to 3600000, got -1/,
      () => ({ bank, databaseStartTimeoutMs: -1 }),
    ],
    [/option databasePoolSize must be an integer from 1 to 200, got 0/, () => ({ bank, databasePoolSize: 0 })],
    [/option databasePoolSize must be an integer from 1 to 200, got 2.5/, () => ({ bank, databasePoolSize: 2.5 })],
    [/option runMigrations must be true or false/, () => ({ bank, runMigrations: 'yes' })],
    [/option polling: .*"minIntervalMs"/, () => ({ bank, polling: { minIntervalMs: -1 } })],
    [
      /option polling\.minIntervalMs is 4999 ms, below the bank's minimum of 5000 ms .*polling\.allowBelowSpec/,
      () => ({ bank, polling: { minIntervalMs: 4_999 } }),
    ],
    [
      /option polling\.delayedMinIntervalMs is 599999 ms, below the bank's minimum of 600000 ms/,
      () => ({ bank, polling: { delayedMinIntervalMs: 599_999 } }),
    ],
    [/option polling\.allowBelowSpec must be true or false/, () => ({ bank, polling: { allowBelowSpec: 'yes' } })],
    [/option sourceAccounts must be a list/, () => ({ bank, sourceAccounts: 'all' })],
    [/option sourceAccounts must name at least one account/, () => ({ bank, sourceAccounts: [] })],
    [
      /option sourceAccounts\[0\]\.address /,
      () => ({ bank, sourceAccounts: [{ address: '123', ownerPersonId: '30712345671' }] }),
    ],
    [/option budget\.maxInFlight must be/, () => ({ bank, budget: { maxInFlight: 0 } })],
    [/option sweep\.batchSize must be an integer from 1 to 1000/, () => ({ bank, sweep: { batchSize: 5000 } })],
    [
      /option sweep\.leaseMs must exceed the longest bank call plus polling\.minIntervalMs \(11000 ms\)/,
      () => ({ bank, sweep: { leaseMs: 10_000 } }),
    ],
    [/option transferRules: amount rule "max"/, () => ({ bank, transferRules: { maxAmount: 'lots' } })],
    [
      /option transferRules: transfer rule "currencies" item 1 must be an ISO 4217 numeric code of 3 digits/,
      () => ({ bank, transferRules: { currencies: ['ARS'] } }),
    ],
    [
      /option transferRules: transfer rule "concepts" must include VAR/,
      () => ({ bank, transferRules: { concepts: ['ALQ'] } }),
    ],
    [
      /option transferRules\.currency is not an option \(known: maxAmount, maxDescriptionLength, currencies, concepts\)/,
      () => ({ bank, transferRules: { currency: ['032'] } }),
    ],
    [/option clock must have a now\(\) method/, () => ({ bank, clock: {} })],
    [
      /option schedule\.bankOperatingHours must be a range of times HH:MM-HH:MM/,
      () => ({ bank, schedule: { bankOperatingHours: '8 to 20' } }),
    ],
    [
      /option schedule\.bankOperatingHours must open before it closes, got 20:00-08:00/,
      () => ({ bank, schedule: { bankOperatingHours: '20:00-08:00' } }),
    ],
    [
      /option sweep\.accountWeights\.0000003110000000000175 must be an integer from 1 to 100/,
      () => ({ bank, sweep: { accountWeights: { '0000003110000000000175': 0 } } }),
    ],
    [
      /option sweep\.accountWeights\.123 is not a valid CBU\/CVU/,
      () => ({ bank, sweep: { accountWeights: { 123: 2 } } }),
    ],
  ])('refuses bad options, saying %s', (message, options) => {
    expect(refusal(options())).toMatch(message);
  });

  it("accepts intervals below the bank's only with polling.allowBelowSpec, and keeps that flag out of the policy", () => {
    const scaled = { minIntervalMs: 100, delayedMinIntervalMs: 1_000 };
    expect(refusal({ bank, polling: scaled })).toMatch(/polling\.minIntervalMs is 100 ms/);
    const resolved = resolveTransferModuleOptions({ bank, polling: { ...scaled, allowBelowSpec: true } });
    expect(resolved.polling).toEqual(scaled);
    expect(resolveTransferModuleOptions({ bank, polling: { minIntervalMs: 5_000 } }).polling).toEqual({
      minIntervalMs: 5_000,
    });
  });

  it('never puts a secret in its messages', () => {
    const message = refusal({ bank: { ...bank, auth: { token: 'super-secret-token', scheme: 'two words' } } });
    expect(message).toMatch(/bank\.auth\.scheme/);
    expect(message).not.toContain('super-secret-token');
  });
});

describe('resolveTransferModuleOptions: limits', () => {
  const A = '0000003110000000000175';
  const B = '2850590940090418135201';
  const accounts = [{ address: A, ownerPersonId: '30712345671' }];

  it('reads the limits, amounts in canonical form, an account taking the default where it says nothing', () => {
    const { limits } = resolveTransferModuleOptions({
      bank,
      sourceAccounts: accounts,
      limits: { default: { dailyCount: 100, dailyAmount: '1000000' }, accounts: { [A]: { perTransfer: '50000.5' } } },
    });
    expect(limits?.of(A)).toEqual({ perTransfer: '50000.50', dailyAmount: '1000000.00', dailyCount: 100 });
    expect(limits?.of(B)).toEqual({ perTransfer: null, dailyAmount: '1000000.00', dailyCount: 100 });
  });

  it('resolves no limits when none is set (nothing is then checked or counted)', () => {
    expect(resolveTransferModuleOptions({ bank }).limits).toBeUndefined();
    expect(resolveTransferModuleOptions({ bank, limits: { default: {} } }).limits).toBeUndefined();
  });

  it.each([
    [/^TransferModule option limits must be an object$/, { limits: 5 }],
    [
      /^TransferModule option limits\.default\.dailyAmount must be a decimal string like "50000\.00"$/,
      { limits: { default: { dailyAmount: 1000 } } },
    ],
    [
      /^TransferModule option limits\.default\.perTransfer has 3 decimals/,
      { limits: { default: { perTransfer: '10.001' } } },
    ],
    [
      /^TransferModule option limits\.default\.dailyCount must be a whole number from 1/,
      { limits: { default: { dailyCount: -1 } } },
    ],
    [/^TransferModule option limits\.accounts\.123 is not an account/, { limits: { accounts: { '123': {} } } }],
    [
      new RegExp(`^TransferModule option limits\\.accounts\\.${B} is not one of sourceAccounts$`),
      { sourceAccounts: accounts, limits: { accounts: { [B]: { dailyCount: 1 } } } },
    ],
  ])('refuses %s', (message, extra) => {
    expect(refusal({ bank, ...extra })).toMatch(message);
  });

  it('accepts limits for addresses beyond sourceAccounts in PSP mode (client sub-accounts)', () => {
    const { limits } = resolveTransferModuleOptions({
      bank,
      sourceAccounts: accounts,
      psp: true,
      limits: { accounts: { [B]: { dailyCount: 3 } } },
    });
    expect(limits?.of(B).dailyCount).toBe(3);
  });
});
