import { Writable } from 'node:stream';
import { SecretRedactor } from '@giro/admin';
import { generateApiKey } from '@giro/transfer-module/domain';
import pino from 'pino';
import { loggerParams } from './logger-params';

// No API key reaches a log line in clear: the reconciler's logger (loggerParams) replaces the secret of any key in
// a message, in a logged object's strings at any usual depth, and in an error, keeping its public id.

const KEY = `giro_0123456789abcdef_${'5e'.repeat(32)}`;
const SECRET = KEY.slice(-64);
const SHOWN = 'giro_0123456789abcdef_[redacted]';
const ADMIN_TOKEN = 'log-admin-token-7d1e4c2b9a';
const redactApiKeysIn = <T>(value: T): T => new SecretRedactor([]).redactIn(value);

function reconcilerLogger() {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const [options] = loggerParams('info', new SecretRedactor([ADMIN_TOKEN]), destination).pinoHttp as [
    pino.LoggerOptions,
    unknown,
  ];
  const logger = pino(options, destination);
  return { logger, text: () => text };
}

describe('secrets in the reconciler logs', () => {
  it('are redacted in messages, in objects, in arrays and in errors, the public id kept', () => {
    const { logger, text } = reconcilerLogger();
    logger.info(`presented ${KEY}`);
    logger.info({ request: { path: `/admin/keys/${KEY}/revoke` }, names: ['ops', KEY] }, 'lookup');
    logger.warn({ err: new Error(`no API key is named "${KEY}"`) }, 'refused');
    logger.error(new Error(`boom ${KEY}`));
    logger.info({ created: { key: KEY, keyId: '0123456789abcdef' } }, 'created');
    const lines = text();
    expect(lines.split('\n').filter(Boolean)).toHaveLength(5);
    expect(lines).not.toContain(SECRET);
    expect(lines.match(/giro_0123456789abcdef_\[redacted\]/g)?.length).toBeGreaterThanOrEqual(6);
    // A field named `key` is redacted whole, as every credential field.
    expect(JSON.parse(lines.split('\n')[4] as string).created).toEqual({
      key: '[redacted]',
      keyId: '0123456789abcdef',
    });
  });

  it('are redacted for a key made as giro makes them', () => {
    const { key } = generateApiKey();
    const { logger, text } = reconcilerLogger();
    logger.info({ detail: `Authorization: Bearer ${key}` }, `key ${key}`);
    expect(text()).not.toContain(key.slice(-64));
    expect(text()).toContain(`${key.slice(0, 22)}[redacted]`);
  });

  it('redact the admin token too, wherever it is and however a URL encodes it', () => {
    const { logger, text } = reconcilerLogger();
    logger.info(`GET /admin/transfers/${ADMIN_TOKEN}`);
    logger.warn(
      {
        requestId: `id-${ADMIN_TOKEN}`,
        url: `/admin/transfers/${encodeURIComponent(ADMIN_TOKEN).replace('a', '%61')}`,
      },
      'refused',
    );
    logger.error(new Error(`Cannot GET /admin/${ADMIN_TOKEN}`));
    expect(text().split('\n').filter(Boolean)).toHaveLength(3);
    expect(text()).not.toContain(ADMIN_TOKEN);
    expect(text()).not.toContain('log-%61dmin');
    expect(text().match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('leaves what holds no key untouched, the same objects', () => {
    const value = { a: 'text', b: [1, 'two'], c: { d: null } };
    expect(redactApiKeysIn(value)).toBe(value);
    const error = new Error('plain');
    expect(redactApiKeysIn(error)).toBe(error);
    expect(redactApiKeysIn(`x ${KEY} y`)).toBe(`x ${SHOWN} y`);
    // Express's route parameters have no prototype.
    const params = Object.assign(Object.create(null), { path: ['admin', KEY] });
    expect(redactApiKeysIn({ params })).toEqual({ params: { path: ['admin', SHOWN] } });
  });
});
