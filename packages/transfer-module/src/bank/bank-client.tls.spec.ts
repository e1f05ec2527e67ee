import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import {
  createCertificateAuthority,
  createDevCertificates,
  type DevCertificates,
  issueCertificate,
  type PemKeyPair,
} from '@giro/sandbox-bank/certs/dev-certificates';
import { BankNotSentError, BankOutcomeUnknownError } from './bank.errors';
import { BankClient } from './bank-client';
import { API, clientOptions, movementAnswer } from './testing/bank-fixtures';
import { type MtlsTestServer, sendJson, startMtlsTestServer } from './testing/mtls-test-server';

const PASSPHRASE = 'correct horse battery staple';

describe('BankClient over mutual TLS', () => {
  let certs: DevCertificates;
  let foreign: { server: PemKeyPair; client: PemKeyPair };
  let server: MtlsTestServer;
  const clients: BankClient[] = [];

  const newClient = (...args: Parameters<typeof clientOptions>) => {
    const client = new BankClient(clientOptions(...args));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    certs = await createDevCertificates({ clientKeyPassphrase: PASSPHRASE });
    const otherCa = await createCertificateAuthority('another CA');
    foreign = {
      server: await issueCertificate(otherCa, { commonName: 'localhost', usage: 'server', altNames: ['127.0.0.1'] }),
      client: await issueCertificate(otherCa, { commonName: 'stranger', usage: 'client' }),
    };
    server = await startMtlsTestServer({ ca: certs.ca.cert, ...certs.server }, (_request, response) =>
      sendJson(response, 200, movementAnswer(7)),
    );
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.requests.length = 0;
  });

  afterAll(() => server.close());

  const passphraseTls = () => ({
    ca: certs.ca.cert,
    cert: certs.client.cert,
    key: certs.client.key,
    passphrase: PASSPHRASE,
  });

  it('works with a passphrase-protected client key, presenting the client certificate', async () => {
    const client = newClient(certs, server.url, { tls: passphraseTls() });

    const movement = await client.getMovement({ originId: 7 });

    expect(movement.status).toBe('IN_PROGRESS');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].path).toBe(API.getMovement);
    expect(server.requests[0].clientCommonName).toBe('giro development client');
  });

  it('a client without a certificate is refused by the server', async () => {
    const attempt = new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: server.port, path: API.getMovement, method: 'POST', ca: certs.ca.cert },
        (response) => resolve(response.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{"originId":7}');
    });

    await expect(attempt).rejects.toThrow();
    expect(server.requests).toHaveLength(0);
  });

  it('a client certificate from another CA is refused by the server', async () => {
    const client = newClient(certs, server.url, {
      tls: { ca: certs.ca.cert, cert: foreign.client.cert, key: foreign.client.key },
    });
    // Under TLS 1.3 the server refuses our certificate after we wrote the request: the client cannot
    // tell that from a reset after sending, so it conservatively says "outcome unknown".
    await expect(client.getMovement({ originId: 7 })).rejects.toBeInstanceOf(BankOutcomeUnknownError);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a server whose certificate comes from another CA: not sent', async () => {
    const impostor = await startMtlsTestServer({ ca: certs.ca.cert, ...foreign.server }, (_request, response) =>
      sendJson(response, 200, movementAnswer(7)),
    );
    try {
      const client = newClient(certs, impostor.url, { tls: passphraseTls() });

      const error = await client.getMovement({ originId: 7 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankNotSentError);
      expect((error as Error).message).toMatch(/certificate/i);
      expect(impostor.requests).toHaveLength(0);
    } finally {
      await impostor.close();
    }
  });

  it('keeps verifying the server even when NODE_TLS_REJECT_UNAUTHORIZED=0 is set', async () => {
    const impostor = await startMtlsTestServer({ ca: certs.ca.cert, ...foreign.server }, (_request, response) =>
      sendJson(response, 200, movementAnswer(7)),
    );
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const client = newClient(certs, impostor.url, { tls: passphraseTls() });

      await expect(client.getMovement({ originId: 7 })).rejects.toBeInstanceOf(BankNotSentError);
      expect(impostor.requests).toHaveLength(0);
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
      warn.mockRestore();
      await impostor.close();
    }
  });

  it('verifies the server against bank.tls.servername when the certificate names another host', async () => {
    const ca = await createCertificateAuthority('bank CA');
    const named = await issueCertificate(ca, {
      commonName: 'bank.internal',
      usage: 'server',
      altNames: ['bank.internal'],
    });
    const bank = await startMtlsTestServer({ ca: certs.ca.cert, ...named }, (_request, response) =>
      sendJson(response, 200, movementAnswer(7)),
    );
    try {
      const tls = { ...passphraseTls(), ca: ca.cert };
      const matching = newClient(certs, bank.url, { tls: { ...tls, servername: 'bank.internal' } });
      const mismatching = newClient(certs, bank.url, { tls });

      await expect(matching.getMovement({ originId: 7 })).resolves.toMatchObject({ status: 'IN_PROGRESS' });
      await expect(mismatching.getMovement({ originId: 7 })).rejects.toBeInstanceOf(BankNotSentError);
      expect(bank.requests).toHaveLength(1);
    } finally {
      await bank.close();
    }
  });

  describe('through an HTTP proxy', () => {
    let proxy: HttpServer;
    let proxyUrl: string;
    const tunnels: string[] = [];

    beforeAll(async () => {
      // A tiny CONNECT proxy: records the target, then splices the two sockets.
      proxy = createHttpServer((_request, response) => response.writeHead(405).end());
      proxy.on('connect', (request, clientSocket: Socket, head: Buffer) => {
        tunnels.push(request.url ?? '');
        const [host, port] = (request.url ?? '').split(':');
        const upstream = netConnect(Number(port), host, () => {
          clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(clientSocket);
          clientSocket.pipe(upstream);
        });
        upstream.on('error', () => clientSocket.destroy());
        clientSocket.on('error', () => upstream.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });

    afterAll(
      () =>
        new Promise<void>((resolve) => {
          proxy.closeAllConnections();
          proxy.close(() => resolve());
        }),
    );

    it('tunnels the request through the proxy, with mutual TLS end to end', async () => {
      const client = newClient(certs, server.url, { tls: passphraseTls(), proxyUrl });

      const movement = await client.getMovement({ originId: 7 });

      expect(movement.originId).toBe(7);
      expect(tunnels).toEqual([`127.0.0.1:${server.port}`]);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].clientCommonName).toBe('giro development client');
    });

    it('a proxy that refuses the tunnel means not sent', async () => {
      const refusing = createHttpServer();
      refusing.on('connect', (_request, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
      try {
        const client = newClient(certs, server.url, {
          tls: passphraseTls(),
          proxyUrl: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
        });

        await expect(client.getMovement({ originId: 7 })).rejects.toBeInstanceOf(BankNotSentError);
        expect(server.requests).toHaveLength(0);
      } finally {
        await new Promise<void>((resolve) => refusing.close(() => resolve()));
      }
    });
  });
});
