import { startTestReconciler, type TestReconciler } from '@test-support/reconciler-harness';

// A token sent in the wrong place — a query string, a header of its own — never reaches a log line in clear,
// and a client's mistakes are logged as warnings without stacks, never as the server's errors.

describe('admin request logs', () => {
  let r: TestReconciler;
  const misplaced = 'misplaced-token-4f1c9a7e2b8d';
  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r?.close());

  it('redacts query values and unknown headers: a token sent as ?access_token= or X-Admin-Token is never logged', async () => {
    const before = r.logs.text.length;
    const answers = [
      await r.request('GET', `/admin/transfers?access_token=${misplaced}&status=COMPLETED`, { token: null }),
      await r.request('GET', `/admin/transfers?status=COMPLETED&token=${misplaced}`),
      await r.request('GET', '/admin/transfers', { token: null, headers: { 'x-admin-token': misplaced } }),
      await r.request('GET', '/admin/transfers', { headers: { 'x-api-key': misplaced } }),
      await r.request('GET', `/health?key=${misplaced}`, { token: null }),
      await r.request('GET', `/nowhere?access_token=${misplaced}`, { token: null }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 400, 401, 200, 200, 404]);
    const written = r.logs.text.slice(before);
    expect(written).not.toContain(misplaced);
    const lines = r.logs.lines().filter((line) => JSON.stringify(line).includes('[redacted]'));
    const urls = lines.map((line) => (line.req as { url?: string } | undefined)?.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/admin/transfers?access_token=[redacted]&status=COMPLETED',
        '/admin/transfers?status=COMPLETED&token=[redacted]',
      ]),
    );
    const headers = lines.map((line) => (line.req as { headers?: Record<string, string> } | undefined)?.headers);
    expect(headers).toEqual(expect.arrayContaining([expect.objectContaining({ 'x-admin-token': '[redacted]' })]));
  });

  it('logs client errors (4xx) at warn without a stack, bodies refused before parsing included', async () => {
    const before = r.logs.lines().length;
    const statuses = [
      (await r.request('GET', '/admin/transfers', { token: null })).status,
      (await r.request('POST', '/admin/transfers', { rawBody: '{"a":' })).status,
      (await r.request('POST', '/admin/transfers', { rawBody: JSON.stringify({ d: 'x'.repeat(20_000) }) })).status,
      (await r.request('POST', '/admin/transfers', { rawBody: '['.repeat(3_000) })).status,
      (await r.request('POST', '/admin/transfers', { rawBody: '{}', headers: { 'content-type': 'text/plain' } }))
        .status,
      (await r.request('GET', '/admin/transfers/99')).status,
    ];
    expect(statuses).toEqual([401, 400, 413, 400, 415, 404]);
    const lines = r.logs.lines().slice(before);
    const requestLines = lines.filter((line) => line.req !== undefined);
    expect(requestLines.map((line) => [line.level, (line.res as { statusCode: number }).statusCode])).toEqual(
      statuses.map((status) => [40, status]),
    );
    // pino levels: 50 error, 60 fatal.
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|\n\s+at /);
  });
});
