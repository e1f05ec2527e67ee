import { generateApiKey } from '@giro/transfer-module/domain';
import { REDACTED, SecretRedactor } from './secret-redactor';

// One redactor for every place a client's text goes (logs, the X-Request-Id echo, the audit trail): the admin token
// and any API key's secret, as typed or percent-encoded, replaced; everything else kept.

const TOKEN = 'admin-token-0123456789';

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor([TOKEN]);

  it('replaces the admin token wherever it is in a text', () => {
    expect(redactor.redact(`/admin/transfers/${TOKEN}`)).toBe(`/admin/transfers/${REDACTED}`);
    expect(redactor.redact(`req-${TOKEN}-${TOKEN}`)).toBe(`req-${REDACTED}-${REDACTED}`);
  });

  it('keeps the public id of an API key and replaces its secret', () => {
    const { key, keyId } = generateApiKey();
    expect(redactor.redact(`/admin/keys/${key}/revoke`)).toBe(`/admin/keys/giro_${keyId}_${REDACTED}/revoke`);
  });

  it('finds a secret percent-encoded, one character or all of them, even beside a malformed escape', () => {
    const encoded = [...TOKEN].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    expect(redactor.redact(`/admin/transfers/${encoded}`)).toBe(`/admin/transfers/${REDACTED}`);
    expect(redactor.redact(`/x/%zz/${TOKEN.replace('a', '%61')}`)).toBe(`/x/%zz/${REDACTED}`);
  });

  it('leaves other text as it is, escapes included', () => {
    expect(redactor.redact('/admin/transfers?status=COMPLETED&q=a%20b')).toBe(
      '/admin/transfers?status=COMPLETED&q=a%20b',
    );
  });

  it('ignores secrets too short to tell from ordinary text', () => {
    expect(new SecretRedactor(['ab']).redact('abc')).toBe('abc');
  });

  it('redacts the strings of objects, arrays and errors, copying only what changed', () => {
    const untouched = { a: 'text', b: [1, 'two'], c: { d: null } };
    expect(redactor.redactIn(untouched)).toBe(untouched);
    expect(redactor.redactIn({ headers: { 'x-request-id': TOKEN }, list: [TOKEN] })).toEqual({
      headers: { 'x-request-id': REDACTED },
      list: [REDACTED],
    });
    const error = redactor.redactIn(new TypeError(`Cannot GET /${TOKEN}`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`Cannot GET /${REDACTED}`);
    expect(error.stack).not.toContain(TOKEN);
  });
});
