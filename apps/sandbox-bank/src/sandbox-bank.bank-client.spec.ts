import {
  BankAuthError,
  type BankClientOptions,
  BankConflictError,
  BankMalformedAnswerError,
  BankMovementNotFoundError,
  type TransferRequestWire,
} from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import { startTestSandbox, type TestSandbox, transferRequest } from './testing/test-sandbox';

/** giro's own bank client against the sandbox: mutual TLS, HMAC and an OAuth2 token, end to end. */
describe('sandbox bank with the giro BankClient', () => {
  let sandbox: TestSandbox;
  const clients: BankClient[] = [];
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox.bank.close();
  });
  beforeEach(() => sandbox.bank.reset());

  const bankClient = (overrides: Partial<BankClientOptions> = {}) => {
    const client = new BankClient({
      baseUrl: sandbox.bank.url,
      tls: { ca: sandbox.certs.ca.cert, cert: sandbox.certs.client.cert, key: sandbox.certs.client.key },
      auth: {
        oauth2: { tokenUrl: `${sandbox.bank.url}/oauth/token`, clientId: 'sandbox', clientSecret: 'sandbox-secret' },
      },
      hmac: { secret: 'sandbox-hmac-secret' },
      clock: sandbox.clock,
      ...overrides,
    });
    clients.push(client);
    return client;
  };
  const request = (originId: number, description?: string) =>
    transferRequest(originId, description) as TransferRequestWire;

  it('completes a transfer over mTLS + HMAC + an OAuth2 token, polling by the rules', async () => {
    const client = bankClient();
    const created = await client.createTransferRequest(request(901));
    expect(created).toMatchObject({ duplicate: false, movement: { status: 'CREATED', originId: 901 } });
    expect(created.movement.amount).toBe('1234.50');

    sandbox.clock.advance(5_000);
    expect((await client.getMovement({ originId: 901 })).status).toBe('IN_PROGRESS');
    sandbox.clock.advance(5_000);
    const completed = await client.getMovement({ originId: 901 });
    expect(completed).toMatchObject({ status: 'COMPLETED', networkId: created.movement.networkId });
    expect(completed.completedDatetime?.toISOString()).toBe('2024-05-01T12:00:08.000Z');

    const counters = sandbox.bank.counters();
    expect(counters).toMatchObject({ processed: 1, processedTwice: 0, pollsTooEarly: 0 });
    expect(counters.requests['oauth-token']).toEqual({ issued: 1 });
    expect(sandbox.bank.ledger.entry(901)?.lookups.map((lookup) => lookup.answered)).toEqual([
      'IN_PROGRESS',
      'COMPLETED',
    ]);
  });

  it('sees a repeated originId as a duplicate in both modes, and the sandbox never processes it twice', async () => {
    const client = bankClient({ duplicateCodes: ['DUPLICATE_ORIGIN_ID'] });
    await client.createTransferRequest(request(902));
    const repeated = await client.createTransferRequest(request(902));
    expect(repeated).toMatchObject({ duplicate: true, movement: { originId: 902 } });

    sandbox.bank.configure({ duplicateMode: 'conflict' });
    try {
      const conflict = await client.createTransferRequest(request(902)).catch((error: unknown) => error);
      expect(conflict).toBeInstanceOf(BankConflictError);
      expect((conflict as BankConflictError).isDuplicateCode).toBe(true);
    } finally {
      sandbox.bank.configure({ duplicateMode: 'return-existing' });
    }
    expect(sandbox.bank.counters()).toMatchObject({ processed: 1, duplicates: 2, processedTwice: 0 });
  });

  it('reads raw data, and maps not-found, a malformed answer and a bad signature to their errors', async () => {
    const client = bankClient({ auth: { token: 'sandbox-token' } });
    await client.createTransferRequest(request(903));
    expect(await client.getMovement({ originId: 903 }, { getRawData: true })).toMatchObject({
      formato: 'COELSA-TRF-1',
    });
    await expect(client.getMovement({ originId: 904 })).rejects.toBeInstanceOf(BankMovementNotFoundError);

    sandbox.bank.configure({ faults: { malformedRate: 1 } });
    try {
      await expect(client.createTransferRequest(request(905))).rejects.toBeInstanceOf(BankMalformedAnswerError);
    } finally {
      sandbox.bank.configure({ faults: { malformedRate: 0 } });
    }
    expect(sandbox.bank.ledger.entry(905)?.creationAnswer).toBe('malformed');

    const wrongSecret = bankClient({ auth: { token: 'sandbox-token' }, hmac: { secret: 'wrong' } });
    await expect(wrongSecret.createTransferRequest(request(906))).rejects.toBeInstanceOf(BankAuthError);
    expect(sandbox.bank.ledger.entry(906)).toBeUndefined();
  });
});
