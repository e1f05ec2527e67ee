import { judgeCertificates } from './certificate-expiry';

describe('judgeCertificates', () => {
  const now = new Date('2026-11-29T00:00:00Z');
  const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);

  it('is valid beyond the warning period, whether or not a CA is given', () => {
    expect(judgeCertificates({ client: inDays(30), ca: inDays(400) }, now, 14)).toEqual({
      state: 'valid',
      problems: [],
    });
    expect(judgeCertificates({ client: inDays(15), ca: undefined }, now, 14).state).toBe('valid');
  });

  it('warns within the period, naming the certificate and the days left', () => {
    const verdict = judgeCertificates({ client: inDays(400), ca: inDays(13.5) }, now, 14);
    expect(verdict.state).toBe('expiring');
    expect(verdict.problems).toEqual(['the ca certificate expires at 2026-12-12T12:00:00.000Z, in 14 day(s)']);
  });

  it('is expired once one certificate is, even when the other only expires soon', () => {
    const verdict = judgeCertificates({ client: inDays(-1), ca: inDays(2) }, now, 14);
    expect(verdict.state).toBe('expired');
    expect(verdict.problems[0]).toBe('the client certificate expired at 2026-11-28T00:00:00.000Z');
    expect(verdict.problems[1]).toMatch(/^the ca certificate expires at/);
  });
});
