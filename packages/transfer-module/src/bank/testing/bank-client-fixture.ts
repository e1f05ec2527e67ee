import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { BankClient } from '../bank-client';
import type { BankClientOptions } from '../bank-client.options';
import { clientOptions } from './bank-fixtures';
import { type MtlsTestServer, type Responder, startMtlsTestServer } from './mtls-test-server';

/**
 * For a BankClient spec file: one mutual-TLS test server for the file, clients of it closed after each test
 * (the requests the server saw are forgotten then too). Call it inside the spec's `describe`.
 */
export function useBankClientFixture() {
  let certs: DevCertificates;
  let testServer: MtlsTestServer;
  const clients: BankClient[] = [];

  beforeAll(async () => {
    certs = await createDevCertificates();
    testServer = await startMtlsTestServer({ ca: certs.ca.cert, ...certs.server });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    testServer.requests.length = 0;
  });
  afterAll(() => testServer.close());

  const server = () => testServer;
  return {
    server,
    /** A client of the test server (or of `url`), with `overrides` replacing whole top-level options. */
    newClient(overrides: Partial<BankClientOptions> = {}, url = testServer.url): BankClient {
      const client = new BankClient(clientOptions(certs, url, overrides));
      clients.push(client);
      return client;
    },
    answer: (responder: Responder) => testServer.respond(responder),
    bodyOf: (index: number) => JSON.parse(testServer.requests[index].body.toString('utf8')),
  };
}
