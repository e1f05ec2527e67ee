import { type SandboxBank, type SandboxConfigPatch, startSandboxBank } from '@giro/sandbox-bank';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import {
  type BankClientOptions,
  BankLookupService,
  CancellationService,
  type Clock,
  MovementService,
  SweepService,
  TransferModule,
  type TransferModuleOptions,
  TransferOverviewService,
  TransferService,
} from '@giro/transfer-module';
import { MovementStore } from '@giro/transfer-module/persistence';
import { ManualClock, type SampleTransferOptions, sampleTransferRequest } from '@giro/transfer-module/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';

export { sweepUntilFinal } from '@giro/transfer-module/testing';

// giro against the sandbox bank, in process, with intervals scaled down 50× and one manual clock for the
// bank and giro: time moves only when a test moves it, so the polling rules are checked exactly.

/** 2024-05-01T12:00:00Z. */
export const START = Date.UTC(2024, 4, 1, 12, 0, 0);

/** The polling rule, scaled down for tests; the sandbox audits the same numbers (`pollsTooEarly`). */
export const POLLING = { minIntervalMs: 100, delayedMinIntervalMs: 1_000 } as const;

export const SANDBOX_CONFIG: SandboxConfigPatch = {
  timings: { createdMs: 100, inProgressMs: 300, delayedMs: 1_500 },
  polling: POLLING,
};

/** Bank call timeouts (real time): short, so a hanging bank costs half a second. */
export const TIMEOUTS = { connectMs: 1_000, headersMs: 500, bodyMs: 500 } as const;

let certificates: Promise<DevCertificates> | undefined;

/** One set of development certificates per test file (key generation is the slow part). */
export function testCertificates(): Promise<DevCertificates> {
  certificates ??= createDevCertificates();
  return certificates;
}

export async function startTestSandbox(clock: Clock, config: SandboxConfigPatch = {}): Promise<SandboxBank> {
  const certs = await testCertificates();
  return startSandboxBank({
    tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
    clock,
    config: { ...SANDBOX_CONFIG, ...config },
  });
}

/** Bank client options for the sandbox at `url` (mutual TLS, static token, HMAC). */
export async function sandboxBankOptions(url: string, overrides: Partial<BankClientOptions> = {}) {
  const certs = await testCertificates();
  return {
    baseUrl: url,
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'sandbox-token' },
    hmac: { secret: 'sandbox-hmac-secret' },
    timeouts: TIMEOUTS,
    ...overrides,
  } satisfies BankClientOptions;
}

export interface Giro {
  app: INestApplicationContext;
  transfers: TransferService;
  movements: MovementService;
  bankLookups: BankLookupService;
  cancellations: CancellationService;
  overview: TransferOverviewService;
  reconcile: SweepService;
  store: MovementStore;
  close(): Promise<void>;
}

/** A Nest application context with TransferModule on its own database (`databaseUrl`). */
export async function startGiro(options: TransferModuleOptions): Promise<Giro> {
  const moduleRef = await Test.createTestingModule({
    imports: [TransferModule.forRoot({ runMigrations: true, ...options })],
  }).compile();
  const app = await moduleRef.init();
  return {
    app,
    transfers: app.get(TransferService),
    movements: app.get(MovementService),
    bankLookups: app.get(BankLookupService),
    cancellations: app.get(CancellationService),
    overview: app.get(TransferOverviewService),
    reconcile: app.get(SweepService),
    store: app.get(MovementStore),
    close: () => app.close(),
  };
}

/** Scaled options for giro against `bank` with `clock` (add `databaseUrl` for a database of its own). */
export async function giroOptions(
  bank: SandboxBank,
  clock: Clock,
  overrides: Partial<TransferModuleOptions> = {},
): Promise<TransferModuleOptions> {
  return {
    bank: await sandboxBankOptions(bank.url),
    clock,
    polling: { ...POLLING, maxJitterMs: 20, maxBackoffMs: 800, allowBelowSpec: true },
    ...overrides,
  };
}

export function manualClock(): ManualClock {
  return new ManualClock(START);
}

/**
 * A transfer request (docs/bank-api.md#request-fields); the sandbox picks its scenario from tags in `description`
 * ([fail], [delay]…).
 */
export function transferRequest(description: string, options: Omit<SampleTransferOptions, 'description'> = {}) {
  return sampleTransferRequest({ ...options, description });
}
