import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssueOptions,
  issueCertificate,
  type PemKeyPair,
} from '@giro/sandbox-bank/certs/dev-certificates';
import { type ClientTls, SignedHttpsClient, signRequest } from '@giro/sandbox-bank/testing/signed-https-client';
import { TRANSFER_PATH, transferRequest } from '@giro/sandbox-bank/testing/test-sandbox';
import { BankNotSentError, type TransferRequestWire } from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import { ManualClock } from '@giro/transfer-module/testing';
import fc from 'fast-check';

// Who may talk to whom. The sandbox bank refuses a client without a certificate, with one from another CA or
// an expired one, a body changed after signing, and a signed request replayed after the timestamp window;
// giro's bank client refuses a server it cannot verify (unknown CA, self-signed, expired, another host's
// certificate), even with NODE_TLS_REJECT_UNAUTHORIZED=0 in its environment. Nothing is ever processed.

const START = Date.UTC(2024, 4, 1, 12, 0, 0);
const CREDENTIALS = { token: 'security-static-token', hmacSecret: 'security-hmac-secret' };

describe('mutual TLS, HMAC and timestamps between giro and the bank', () => {
  let ca: CertificateAuthority;
  let server: PemKeyPair;
  let certs: { client: PemKeyPair };
  let clock: ManualClock;
  let bank: SandboxBank;
  let client: SignedHttpsClient;
  const figures = { tlsRefused: 0, tampered: 0, replayed: 0, serversRefused: 0 };
  let held = 0;
  const tests = 4;

  beforeAll(async () => {
    ca = await createCertificateAuthority('the bank’s CA');
    server = await issueCertificate(ca, { commonName: 'localhost', usage: 'server', altNames: ['127.0.0.1'] });
    certs = { client: await issueCertificate(ca, { commonName: 'giro', usage: 'client' }) };
    clock = new ManualClock(START);
    bank = await startSandboxBank({
      tls: { cert: server.cert, key: server.key, ca: ca.cert },
      clock,
      credentials: CREDENTIALS,
    });
    client = new SignedHttpsClient(
      bank.url,
      { ca: ca.cert, cert: certs.client.cert, key: certs.client.key },
      CREDENTIALS,
      clock,
    );
  });
  afterAll(async () => {
    await bank?.close();
    console.log(
      `bank authentication: refused at the TLS layer ${figures.tlsRefused}, tampered bodies refused ${figures.tampered}, ` +
        `stale replays refused ${figures.replayed}, unverifiable servers refused by giro ${figures.serversRefused}; ` +
        (held === tests ? 'none of them processed' : 'BROKEN (see the failures above)'),
    );
  });
  beforeEach(() => bank.reset());

  const nothingProcessed = () => {
    expect(bank.ledger.size).toBe(0);
    expect(bank.counters().processed).toBe(0);
  };

  it('refuses at the TLS layer a client without a certificate, with another CA’s, or with an expired one', async () => {
    const stranger = await issueCertificate(await createCertificateAuthority('another CA'), {
      commonName: 'stranger',
      usage: 'client',
    });
    const impostor = await issueCertificate(await createCertificateAuthority('the bank’s CA'), {
      commonName: 'impostor',
      usage: 'client',
    });
    const expired = await issueCertificate(ca, {
      commonName: 'giro',
      usage: 'client',
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      validDays: 1,
    });
    const attempts: ClientTls[] = [
      { ca: ca.cert },
      { ca: ca.cert, cert: stranger.cert, key: stranger.key },
      { ca: ca.cert, cert: impostor.cert, key: impostor.key },
      { ca: ca.cert, cert: expired.cert, key: expired.key },
    ];
    for (const tls of attempts) {
      figures.tlsRefused += 1;
      await expect(client.withTls(tls).post(TRANSFER_PATH, transferRequest(301))).rejects.toThrow();
    }
    nothingProcessed();
    // The HTTP layer never saw them: no request of any kind was counted.
    expect(bank.counters().requests).toEqual({});
    held += 1;
  });

  it('refuses a body changed after it was signed, whatever byte changed', async () => {
    const body = JSON.stringify(transferRequest(302));
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: body.length - 1 }), fc.integer({ min: 0x20, max: 0x7e }), async (at, code) => {
        fc.pre(body.charCodeAt(at) !== code);
        figures.tampered += 1;
        const tampered = `${body.slice(0, at)}${String.fromCharCode(code)}${body.slice(at + 1)}`;
        const answer = await client.post(TRANSFER_PATH, undefined, { rawBody: tampered, signedBody: body });
        expect({ status: answer.status, code: answer.json?.code }).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
        nothingProcessed();
      }),
      { numRuns: 40 },
    );
    held += 1;
  });

  it('refuses a signed request replayed after the timestamp window, and never processes one twice', async () => {
    const body = JSON.stringify(transferRequest(303));
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const headers = {
      authorization: `Bearer ${CREDENTIALS.token}`,
      'content-type': 'application/json',
      'x-timestamp': String(timestamp),
      'x-signature': signRequest({
        method: 'POST',
        path: TRANSFER_PATH,
        timestamp,
        body,
        secret: CREDENTIALS.hmacSecret,
      }),
    };
    const replay = () => client.send('POST', TRANSFER_PATH, body, headers);
    expect((await replay()).status).toBe(200);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 30 * 86_400 }), async (laterSeconds) => {
        figures.replayed += 1;
        clock.set(START + laterSeconds * 1000);
        const answer = await replay();
        expect({ status: answer.status, code: answer.json?.code }).toEqual({ status: 401, code: 'STALE_TIMESTAMP' });
      }),
      { numRuns: 20 },
    );
    clock.set(START);
    expect(bank.ledger.entry(303)).toMatchObject({ duplicateRequests: 0 });
    expect(bank.counters()).toMatchObject({ processed: 1, processedTwice: 0, duplicates: 0 });
    held += 1;
  });

  it('giro’s client refuses a server it cannot verify, even with NODE_TLS_REJECT_UNAUTHORIZED=0', async () => {
    const otherCa = await createCertificateAuthority('an unknown CA');
    const sameName = await createCertificateAuthority('the bank’s CA');
    const self = await createCertificateAuthority('127.0.0.1');
    const local: IssueOptions = { commonName: 'localhost', usage: 'server', altNames: ['127.0.0.1'] };
    const servers: Record<string, PemKeyPair> = {
      'another CA': await issueCertificate(otherCa, local),
      'a CA of the same name': await issueCertificate(sameName, local),
      'another host': await issueCertificate(ca, { commonName: 'bank.example.com', usage: 'server' }),
      expired: await issueCertificate(ca, {
        ...local,
        notBefore: new Date(Date.now() - 10 * 86_400_000),
        validDays: 1,
      }),
      'self-signed': { cert: self.cert, key: self.key },
    };
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    try {
      for (const verificationOff of [false, true]) {
        if (verificationOff) process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
        for (const [name, certificate] of Object.entries(servers)) {
          figures.serversRefused += 1;
          const impostor = await startSandboxBank({
            tls: { cert: certificate.cert, key: certificate.key, ca: ca.cert },
            clock,
            credentials: CREDENTIALS,
          });
          const giro = new BankClient({
            baseUrl: impostor.url,
            tls: { ca: ca.cert, cert: certs.client.cert, key: certs.client.key },
            auth: { token: CREDENTIALS.token },
            hmac: { secret: CREDENTIALS.hmacSecret },
            clock,
          });
          try {
            const request = transferRequest(304) as TransferRequestWire;
            const error = await giro.createTransferRequest(request).catch((e: unknown) => e);
            expect({ name, verificationOff, refused: error instanceof BankNotSentError }).toEqual({
              name,
              verificationOff,
              refused: true,
            });
            expect(impostor.counters().requests).toEqual({});
            expect(impostor.ledger.size).toBe(0);
          } finally {
            await giro.close();
            await impostor.close();
          }
        }
      }
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
    }
    held += 1;
  });
});
