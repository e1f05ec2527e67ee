import { REDACTED } from '@giro/admin';
import { redactHeaders, redactUrl } from './request-log-redaction';

describe('request log redaction', () => {
  it("keeps the admin API's query parameters and redacts every other value", () => {
    expect(redactUrl('/admin/transfers?status=COMPLETED&limit=5&access_token=s3cret&after=abc')).toBe(
      `/admin/transfers?status=COMPLETED&limit=5&access_token=${REDACTED}&after=abc`,
    );
    expect(redactUrl('/health?token')).toBe(`/health?token=${REDACTED}`);
    expect(redactUrl('/admin/transfers?%61ccess_token=x&%zz=y')).toBe(
      `/admin/transfers?%61ccess_token=${REDACTED}&%zz=${REDACTED}`,
    );
    expect(redactUrl('/admin/transfers/12')).toBe('/admin/transfers/12');
  });

  it('keeps the values of known harmless headers only', () => {
    expect(
      redactHeaders({ host: 'giro', 'user-agent': 'curl', 'x-admin-token': 's3cret', 'X-Api-Key': 'k', cookie: 'c' }),
    ).toEqual({
      host: 'giro',
      'user-agent': 'curl',
      'x-admin-token': REDACTED,
      'X-Api-Key': REDACTED,
      cookie: REDACTED,
    });
  });
});
