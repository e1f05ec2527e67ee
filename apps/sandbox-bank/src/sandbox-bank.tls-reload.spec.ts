import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TransferRequestWire } from '@giro/transfer-module';
import { BankClient, BankOptionsError } from '@giro/transfer-module/bank';
import { startTestSandbox, type TestSandbox, transferRequest } from './testing/test-sandbox';

/** giro's bank client reloading its mutual-TLS files while it talks to the sandbox: nothing in flight is dropped. */
describe('BankClient.reloadTls against the sandbox bank', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let client: BankClient;
  let files: { ca: string; cert: string; key: string };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox.bank.close();
  });
  beforeEach(() => {
    sandbox.bank.reset();
    dir = mkdtempSync(join(tmpdir(), 'giro-tls-reload-'));
    files = { ca: join(dir, 'ca.pem'), cert: join(dir, 'client.pem'), key: join(dir, 'client-key.pem') };
    writeFileSync(files.ca, sandbox.certs.ca.cert);
    writeFileSync(files.cert, sandbox.certs.client.cert);
    writeFileSync(files.key, sandbox.certs.client.key);
    client = new BankClient({
      baseUrl: sandbox.bank.url,
      tls: { caFile: files.ca, certFile: files.cert, keyFile: files.key },
      auth: { token: 'sandbox-token' },
      hmac: { secret: 'sandbox-hmac-secret' },
      clock: sandbox.clock,
    });
  });
  afterEach(async () => {
    sandbox.bank.configure({ faults: { latencyMs: 0 } });
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = (originId: number) => transferRequest(originId) as TransferRequestWire;

  it('lets a call in flight finish on the previous connections while the next one uses the material read again', async () => {
    await client.createTransferRequest(request(1));
    sandbox.bank.configure({ faults: { latencyMs: 400 } });
    const inFlight = client.createTransferRequest(request(2));
    // The bank holds the request (its latency counted): it is on the wire when the pool is swapped.
    while (sandbox.bank.counters().faults.latency === 0) await new Promise((resolve) => setImmediate(resolve));
    const before = client.tlsMaterial();
    const reloaded = client.reloadTls();
    expect(reloaded).not.toBe(before);
    expect(client.tlsMaterial()).toBe(reloaded);
    sandbox.bank.configure({ faults: { latencyMs: 0 } });
    const next = await client.createTransferRequest(request(3));
    expect(next.movement.originId).toBe(3);
    expect((await inFlight).movement.originId).toBe(2);
    expect(sandbox.bank.ledger.entry(2)).toBeDefined();
  });

  it('keeps the material in use, and says why, when the files do not load', async () => {
    const before = client.tlsMaterial();
    writeFileSync(files.cert, 'not a certificate');
    expect(() => client.reloadTls()).toThrow(BankOptionsError);
    expect(() => client.reloadTls()).toThrow('bank.tls.cert is not a readable PEM certificate');
    writeFileSync(files.cert, sandbox.certs.server.cert);
    expect(() => client.reloadTls()).toThrow('bank.tls.key does not belong to bank.tls.cert');
    writeFileSync(files.cert, sandbox.certs.client.cert);
    writeFileSync(files.ca, '-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n');
    expect(() => client.reloadTls()).toThrow('bank.tls.ca holds a certificate that is not readable PEM');
    expect(client.tlsMaterial()).toBe(before);
    expect((await client.createTransferRequest(request(4))).movement.originId).toBe(4);
  });
});
