import type { SandboxBank } from '@giro/sandbox-bank';
import { BankAuthError, type BankHmacOptions, type TransferRequestWire } from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import type { ManualClock } from '@giro/transfer-module/testing';
import { manualClock, sandboxBankOptions, startTestSandbox, transferRequest } from './support/giro-harness';

// giro's bank client signing with a preset and header names other than the defaults, over mutual TLS, and the
// sandbox bank verifying the scheme it is configured with: accepted when both agree, 401 when they do not.

describe('the HMAC scheme as a setting, against the sandbox bank', () => {
  let clock: ManualClock;
  let bank: SandboxBank;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(() => bank.close());

  const send = async (hmac: BankHmacOptions, originId: number) => {
    const client = new BankClient({ ...(await sandboxBankOptions(bank.url, { hmac })), clock });
    const wire = { ...transferRequest('hmac'), originId, body: { ...transferRequest('hmac').body, amount: 10 } };
    try {
      return await client.createTransferRequest(wire as TransferRequestWire);
    } finally {
      await client.close();
    }
  };
  const unauthorized = () => bank.counters().requests['transfer-request']?.unauthorized ?? 0;

  it('is accepted with the single-header preset under another header name, and refused when they differ', async () => {
    bank.configure({ hmac: { preset: 'single-header', signatureHeader: 'X-Api-Signature' } });
    const hmac = { secret: 'sandbox-hmac-secret', keyId: 'key-1', preset: 'single-header' } as const;

    await send({ ...hmac, headers: { signature: 'X-Api-Signature' } }, 501);
    expect(bank.ledger.entry(501)).toBeDefined();

    await expect(send(hmac, 502)).rejects.toBeInstanceOf(BankAuthError);
    await expect(send({ secret: 'sandbox-hmac-secret' }, 503)).rejects.toBeInstanceOf(BankAuthError);
    expect(bank.ledger.entry(502)).toBeUndefined();
    expect(bank.ledger.entry(503)).toBeUndefined();
    expect(unauthorized()).toBeGreaterThanOrEqual(2);
  });

  it('is accepted with the default preset under other header names, and refused under the default names', async () => {
    bank.configure({ hmac: { timestampHeader: 'X-Bank-Time', signatureHeader: 'X-Bank-Sig' } });
    const headers = { timestamp: 'X-Bank-Time', signature: 'X-Bank-Sig', keyId: 'X-Bank-Key' };

    await send({ secret: 'sandbox-hmac-secret', keyId: 'key-1', headers }, 511);
    expect(bank.ledger.entry(511)).toBeDefined();

    await expect(send({ secret: 'sandbox-hmac-secret' }, 512)).rejects.toBeInstanceOf(BankAuthError);
    await expect(send({ secret: 'another-secret', headers }, 513)).rejects.toBeInstanceOf(BankAuthError);
    expect(bank.ledger.entry(512)).toBeUndefined();
    expect(bank.ledger.entry(513)).toBeUndefined();
  });
});
