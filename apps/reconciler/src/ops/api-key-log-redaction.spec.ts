import { Writable } from 'node:stream';
import { generateApiKey } from '@giro/transfer-module/domain';
import pino from 'pino';
import { redactApiKeysIn } from './api-key-log-redaction';
import { loggerParams } from './logger-params';

// No API key reaches a log line in clear: the reconciler's logger (loggerParams) replaces the secret of any key in
// a message, in a logged object's strings at any usual depth, and in an error, keeping its public id.

const KEY = `giro_0123456789abcdef_${'5e'.repeat(32)}`;
const SECRET = KEY.slice(-64);
const SHOWN = 'giro_0123456789abcdef_[redacted]';

function reconcilerLogger() {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const [options] = loggerParams('info', destination).pinoHttp as [pino.LoggerOptions, unknown];
  const logger = pino(options, destination);
  return { logger, text: () => text };
}

describe('API keys in the reconciler logs', () => {
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
