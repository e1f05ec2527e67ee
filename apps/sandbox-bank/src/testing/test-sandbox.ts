import { completeCbuCvu, completeCuit } from '@giro/transfer-module';
import { ManualClock } from '@giro/transfer-module/testing';
import { createDevCertificates, type DevCertificates } from '../certs/dev-certificates';
import { type SandboxBank, type SandboxBankOptions, startSandboxBank } from '../sandbox-bank';
import { SignedHttpsClient } from './signed-https-client';

export const TRANSFER_PATH = '/v2/apibank/movements/transfer-request';
export const GET_MOVEMENT_PATH = '/v2/apibank/movements/get-movement';

/** 2024-05-01T12:00:00Z: whole seconds, so wire timestamps are predictable. */
export const TEST_START = Date.UTC(2024, 4, 1, 12, 0, 0);

let sharedCertificates: Promise<DevCertificates> | undefined;

/** One set of development certificates per test file (key generation is the slow part). */
export function testCertificates(): Promise<DevCertificates> {
  sharedCertificates ??= createDevCertificates();
  return sharedCertificates;
}

export interface TestSandbox {
  bank: SandboxBank;
  clock: ManualClock;
  certs: DevCertificates;
  /** Presents the client certificate, the default static token and HMAC secret. */
  client: SignedHttpsClient;
}

/** A sandbox bank on a free port with a manual clock, and a client that speaks to it correctly. */
export async function startTestSandbox(options: Partial<SandboxBankOptions> = {}): Promise<TestSandbox> {
  const certs = await testCertificates();
  const clock = new ManualClock(TEST_START);
  const bank = await startSandboxBank({
    tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
    clock,
    ...options,
  });
  const client = new SignedHttpsClient(
    bank.url,
    { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    { token: 'sandbox-token', hmacSecret: 'sandbox-hmac-secret' },
    clock,
  );
  return { bank, clock, certs, client };
}

function mustCuit(first10: string): string {
  const cuit = completeCuit(first10);
  if (!cuit) throw new Error(`no valid CUIT starts with ${first10}`);
  return cuit;
}

export const FROM_CVU = completeCbuCvu('0000003', '1000000000017');
export const TO_CBU = completeCbuCvu('2850590', '9400900418135');
export const FROM_CUIT = mustCuit('3071234567');
export const TO_CUIL = mustCuit('2012345678');

/** A valid transfer request (docs/bank-api.md#request-fields). */
export function transferRequest(originId: number, description = 'sandbox test', amount: number = 1234.5) {
  return {
    originId,
    from: { addressType: 'CBU_CVU', address: FROM_CVU, owner: { personIdType: 'CUI', personId: FROM_CUIT } },
    to: { addressType: 'CBU_CVU', address: TO_CBU, owner: { personIdType: 'CUI', personId: TO_CUIL } },
    body: { currencyId: '032', amount, description, concept: 'VAR' },
  };
}
