import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCertificateAuthority,
  createDevCertificates,
  type DevCertificates,
  issueCertificate,
} from '@giro/sandbox-bank/certs/dev-certificates';
import { systemClock } from '../domain';
import { BankOptionsError } from './bank.errors';
import { BankClient } from './bank-client';
import { type BankClientOptions, resolveBankClientOptions } from './bank-client.options';

describe('bank client options', () => {
  let certs: DevCertificates;
  let encrypted: { cert: string; key: string };
  let encryptedKey: string;
  let dir: string;

  const valid = (): BankClientOptions => ({
    baseUrl: 'https://bank.example',
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 't' },
  });
  const messageFor = (options: unknown) => {
    try {
      resolveBankClientOptions(options as BankClientOptions);
    } catch (error) {
      expect(error).toBeInstanceOf(BankOptionsError);
      return (error as Error).message;
    }
    throw new Error('the options were accepted');
  };

  beforeAll(async () => {
    certs = await createDevCertificates();
    const ca = await createCertificateAuthority();
    encrypted = await issueCertificate(ca, { commonName: 'x', usage: 'client', passphrase: 'pw' });
    encryptedKey = encrypted.key;
    dir = mkdtempSync(join(tmpdir(), 'giro-bank-options-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies the defaults', () => {
    const resolved = resolveBankClientOptions(valid());

    expect(resolved).toMatchObject({
      origin: 'https://bank.example',
      paths: {
        transferRequest: '/v2/apibank/movements/transfer-request',
        getMovement: '/v2/apibank/movements/get-movement',
      },
      auth: { kind: 'static', scheme: 'Bearer' },
      timeouts: { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
      maxConnections: 10,
      maxResponseBytes: 1_048_576,
      duplicateCodes: [],
      notFoundCodes: [],
      duplicateWarningFields: ['warning', 'warnings', 'message'],
      debinIdField: 'debinId',
      clock: systemClock,
    });
    expect(resolved.hmac).toBeUndefined();
    expect(resolved.proxyUrl).toBeUndefined();
  });

  it('resolves the HMAC preset (default `default`) and the header names given', () => {
    expect(resolveBankClientOptions({ ...valid(), hmac: { secret: 's' } }).hmac).toMatchObject({
      kind: 'default',
      options: { preset: 'default', algorithm: 'sha256' },
    });
    const resolved = resolveBankClientOptions({
      ...valid(),
      hmac: { secret: 's', preset: 'single-header', headers: { signature: 'X-Api-Signature' } },
    });
    expect(resolved.hmac).toMatchObject({
      kind: 'default',
      options: { preset: 'single-header', headers: { signature: 'X-Api-Signature' } },
    });
  });

  it('reads the CA, certificate and key from files', () => {
    const file = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const resolved = resolveBankClientOptions({
      ...valid(),
      tls: {
        caFile: file('ca.pem', certs.ca.cert),
        certFile: file('c.pem', certs.client.cert),
        keyFile: file('k.pem', certs.client.key),
      },
    });

    expect(resolved.tls.ca).toBe(certs.ca.cert);
    expect(resolved.tls.cert).toBe(certs.client.cert);
    expect(resolved.tls.key.reveal()).toBe(certs.client.key);
  });

  it('accepts an encrypted key with its passphrase', () => {
    const tls = { ca: certs.ca.cert, cert: encrypted.cert, key: encrypted.key, passphrase: 'pw' };

    const resolved = resolveBankClientOptions({ ...valid(), tls });

    expect(resolved.tls.key.reveal()).toBe(encrypted.key);
    expect(resolved.tls.passphrase?.reveal()).toBe('pw');
  });

  it.each<[string, (o: BankClientOptions) => unknown, string]>([
    ['no object', () => null, 'bank must be an object'],
    ['http base URL', (o) => ({ ...o, baseUrl: 'http://bank.example' }), 'bank.baseUrl must be an https URL'],
    ['garbage base URL', (o) => ({ ...o, baseUrl: 'not a url' }), 'bank.baseUrl must be an https URL'],
    [
      'base URL with credentials',
      (o) => ({ ...o, baseUrl: 'https://u:p@bank.example' }),
      'bank.baseUrl must not carry credentials',
    ],
    [
      'base URL with a query',
      (o) => ({ ...o, baseUrl: 'https://bank.example/?a=1' }),
      'bank.baseUrl must not have a query string',
    ],
    ['relative prefix', (o) => ({ ...o, pathPrefix: 'v2/apibank' }), 'bank.pathPrefix must be a path like /v2/apibank'],
    [
      'prefix going up',
      (o) => ({ ...o, pathPrefix: '/v2/../admin' }),
      'bank.pathPrefix must be a path like /v2/apibank',
    ],
    ['a typo', (o) => ({ ...o, baseURL: 'x' }), 'bank.baseURL is not an option'],
    [
      'rejectUnauthorized at the top',
      (o) => ({ ...o, rejectUnauthorized: false }),
      'bank.rejectUnauthorized is not supported: certificate verification can not be switched off',
    ],
    [
      'rejectUnauthorized in tls',
      (o) => ({ ...o, tls: { ...o.tls, rejectUnauthorized: false } }),
      'bank.tls.rejectUnauthorized is not supported: certificate verification can not be switched off',
    ],
    [
      'a custom server identity check',
      (o) => ({ ...o, tls: { ...o.tls, checkServerIdentity: () => undefined } }),
      'bank.tls.checkServerIdentity is not supported: certificate verification can not be switched off',
    ],
    ['no tls', (o) => ({ ...o, tls: undefined }), 'bank.tls must be an object'],
    [
      'no certificate',
      (o) => ({ ...o, tls: { ...o.tls, cert: undefined } }),
      'bank.tls.cert or bank.tls.certFile is required',
    ],
    ['no key', (o) => ({ ...o, tls: { ...o.tls, key: undefined } }), 'bank.tls.key or bank.tls.keyFile is required'],
    [
      'key and keyFile',
      (o) => ({ ...o, tls: { ...o.tls, keyFile: '/k.pem' } }),
      'bank.tls.key and bank.tls.keyFile are exclusive',
    ],
    [
      'an unreadable key file',
      (o) => ({ ...o, tls: { ...o.tls, key: undefined, keyFile: join(dir, 'missing.pem') } }),
      'bank.tls.keyFile could not be read (ENOENT)',
    ],
    ['a CA that is not PEM', (o) => ({ ...o, tls: { ...o.tls, ca: 'hello' } }), 'bank.tls.ca must be a PEM string'],
    [
      'a key of another certificate',
      (o) => ({ ...o, tls: { ...o.tls, key: certs.server.key } }),
      'bank.tls.key does not belong to bank.tls.cert',
    ],
    [
      'an encrypted key without passphrase',
      (o) => ({ ...o, tls: { ...o.tls, key: encryptedKey } }),
      'bank.tls.key could not be read (an encrypted key needs bank.tls.passphrase)',
    ],
    [
      'a wrong passphrase',
      (o) => ({ ...o, tls: { ...o.tls, key: encryptedKey, passphrase: 'nope' } }),
      'bank.tls.key could not be decrypted with bank.tls.passphrase',
    ],
    ['an https proxy', (o) => ({ ...o, proxyUrl: 'https://proxy:3128' }), 'bank.proxyUrl must be an http URL'],
    ['a proxy with a path', (o) => ({ ...o, proxyUrl: 'http://proxy:3128/x' }), 'bank.proxyUrl must have no path'],
    ['no auth source', (o) => ({ ...o, auth: {} }), 'bank.auth must have exactly one of token, oauth2, provider'],
    [
      'two auth sources',
      (o) => ({ ...o, auth: { token: 't', provider: { getToken: async () => 't' } } }),
      'bank.auth must have exactly one of token, oauth2, provider',
    ],
    ['an empty token', (o) => ({ ...o, auth: { token: '' } }), 'bank.auth.token must be a non-empty string'],
    [
      'a scheme with a space',
      (o) => ({ ...o, auth: { token: 't', scheme: 'My Scheme' } }),
      'bank.auth.scheme must be one word',
    ],
    [
      'a provider without getToken',
      (o) => ({ ...o, auth: { provider: {} } }),
      'bank.auth.provider must have a getToken() method',
    ],
    [
      'an http token URL',
      (o) => ({ ...o, auth: { oauth2: { tokenUrl: 'http://bank/token', clientId: 'c', clientSecret: 's' } } }),
      'bank.auth.oauth2.tokenUrl must be an https URL',
    ],
    [
      'no client secret',
      (o) => ({ ...o, auth: { oauth2: { tokenUrl: 'https://bank/token', clientId: 'c' } } }),
      'bank.auth.oauth2.clientSecret must be a non-empty string',
    ],
    [
      'an unknown client authentication',
      (o) => ({
        ...o,
        auth: {
          oauth2: { tokenUrl: 'https://bank/token', clientId: 'c', clientSecret: 's', clientAuthentication: 'jwt' },
        },
      }),
      'bank.auth.oauth2.clientAuthentication must be one of basic, body',
    ],
    [
      'an unknown HMAC algorithm',
      (o) => ({ ...o, hmac: { secret: 's', algorithm: 'md5' } }),
      'bank.hmac.algorithm must be one of sha256, sha512',
    ],
    [
      'a signer and a secret',
      (o) => ({ ...o, hmac: { secret: 's', signer: () => ({}) } }),
      'bank.hmac must have either signer or secret',
    ],
    ['an HMAC without secret', (o) => ({ ...o, hmac: {} }), 'bank.hmac.secret must be a non-empty string'],
    [
      'an unknown HMAC preset',
      (o) => ({ ...o, hmac: { secret: 's', preset: 'aws-sigv4' } }),
      'bank.hmac.preset must be one of default, single-header',
    ],
    [
      'a signer and header names',
      (o) => ({ ...o, hmac: { signer: () => ({}), headers: { signature: 'Sig' } } }),
      'bank.hmac must have either signer or secret',
    ],
    [
      'a key id with a comma for the single-header preset',
      (o) => ({ ...o, hmac: { secret: 's', keyId: 'a,b', preset: 'single-header' } }),
      'bank.hmac.keyId must not contain a comma with the single-header preset',
    ],
    [
      'a timestamp header for the single-header preset',
      (o) => ({ ...o, hmac: { secret: 's', preset: 'single-header', headers: { timestamp: 'X-Ts' } } }),
      'bank.hmac.headers.timestamp is not used by the single-header preset (it sends signature only)',
    ],
    [
      'a zero timeout',
      (o) => ({ ...o, timeouts: { connectMs: 0 } }),
      'bank.timeouts.connectMs must be an integer of at least 1',
    ],
    [
      'a fractional timeout',
      (o) => ({ ...o, timeouts: { bodyMs: 1.5 } }),
      'bank.timeouts.bodyMs must be an integer of at least 1',
    ],
    [
      'a tiny response cap',
      (o) => ({ ...o, maxResponseBytes: 100 }),
      'bank.maxResponseBytes must be an integer of at least 1024',
    ],
    [
      'duplicate codes not a list',
      (o) => ({ ...o, duplicateCodes: 'DUP' }),
      'bank.duplicateCodes must be an array of strings',
    ],
    [
      'an empty not-found code',
      (o) => ({ ...o, notFoundCodes: ['NF', ''] }),
      'bank.notFoundCodes[1] must be a non-empty string',
    ],
    [
      'debinId field clashing',
      (o) => ({ ...o, debinIdField: 'originId' }),
      'bank.debinIdField must not be a field the request already uses',
    ],
    [
      'debinId field not a name',
      (o) => ({ ...o, debinIdField: 'debin-id' }),
      'bank.debinIdField must be a JSON field name',
    ],
    ['a clock without now()', (o) => ({ ...o, clock: {} }), 'bank.clock must have a now() method'],
  ])('refuses %s, naming the option', (_label, change, message) => {
    expect(messageFor(change(valid()))).toContain(message);
  });

  it('BankClient validates at construction', () => {
    expect(() => new BankClient({ ...valid(), baseUrl: 'http://bank.example' })).toThrow(
      new BankOptionsError('bank.baseUrl must be an https URL'),
    );
  });
});
