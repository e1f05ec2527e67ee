import { request as httpsRequest } from 'node:https';
import { businessDayOf } from '@giro/transfer-module';
import { describeOnEachEngine } from './support/engines';
import {
  FROM_CVU,
  startTestReconciler,
  type TestReconciler,
  testCertificates,
  transferRequest,
} from './support/reconciler-harness';

// The day closed against the bank, end to end: the reconciler in process (SQLite file, then Postgres) and a sandbox
// bank over mutual TLS answering at once (each transfer COMPLETED at creation). The sandbox writes the day's
// statement; one completed transfer's line is taken out of it and a debit no transfer explains is added, and the
// import names exactly those two. The same file again answers the same import and stores nothing.

/** A GET of the sandbox's control surface over mutual TLS, as text. */
async function sandboxText(r: TestReconciler, path: string): Promise<string> {
  const certs = await testCertificates();
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${r.bank.url}${path}`,
      { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () =>
          response.statusCode === 200 ? resolve(body) : reject(new Error(`${response.statusCode}: ${body}`)),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describeOnEachEngine('a bank statement matched against a day of transfers', (engine) => {
  let r: TestReconciler;

  beforeEach(async () => {
    r = await startTestReconciler({
      databaseUrl: await engine.createDatabaseUrl(),
      sandboxConfig: { timings: { createdMs: 0, inProgressMs: 0, delayedMs: 0 } },
    });
  });
  afterEach(() => r.close());

  it('names exactly the debit no transfer explains and the transfer the statement lacks, once', async () => {
    const originIds = [3800, 3801, 3802, 3803];
    for (const originId of originIds) {
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId, amount: `${originId}.25` }),
      });
      expect(created.json).toMatchObject({ originId, status: 'COMPLETED' });
    }
    const networkIdOf = new Map<number, string>();
    for (const originId of originIds) {
      networkIdOf.set(originId, (await r.request('GET', `/admin/transfers/${originId}`)).json.networkId);
    }
    const day = businessDayOf(r.clock.now());
    const statement = await sandboxText(r, `/__sandbox/statement?date=${day}&account=${FROM_CVU}`);
    const [header, ...lines] = statement.trimEnd().split('\r\n');
    expect(header).toBe('date,amount,reference,description');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(`${day},-3800.25,${networkIdOf.get(3800)},"reconciler test"`);

    const missing = networkIdOf.get(3801) as string;
    const edited = [header, ...lines.filter((line) => !line.includes(missing)), `${day},-999.99,CARGO-77,"comisión"`];
    const file = `${edited.join('\r\n')}\r\n`;
    const post = () =>
      r.request('POST', `/admin/statements?account=${FROM_CVU}`, {
        rawBody: file,
        headers: { 'content-type': 'text/csv' },
      });

    const imported = await post();
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({
      account: FROM_CVU,
      lines: 4,
      periodFrom: day,
      periodTo: day,
      counts: { matched: 3, onlyInStatement: 1, onlyInGiro: 1, amountMismatch: 0 },
    });
    expect(imported.json.matched.map((item: { transfer: { originId: number } }) => item.transfer.originId)).toEqual([
      3800, 3802, 3803,
    ]);
    expect(imported.json.onlyInStatement).toEqual([
      {
        kind: 'unknown_debit',
        line: { number: 5, date: day, amount: '-999.99', reference: 'CARGO-77' },
        transfer: null,
      },
    ]);
    expect(imported.json.onlyInGiro).toEqual([
      { kind: 'missing_in_statement', line: null, transfer: { originId: 3801, networkId: missing, amount: '3801.25' } },
    ]);
    expect(imported.json.amountMismatch).toEqual([]);

    // A transfer's view says which line confirmed it; the one the statement lacks has none.
    expect((await r.request('GET', '/admin/transfers/3800')).json.statement).toEqual({
      importId: imported.json.id,
      line: 2,
      date: day,
    });
    expect((await r.request('GET', '/admin/transfers/3801')).json.statement).toBeUndefined();

    // The debit no transfer explains is an anomaly: listed, counted open, closed by an operator's note.
    const anomalies = await r.request('GET', '/admin/anomalies?resolved=false');
    const unknown = anomalies.json.items.find((item: { kind?: string }) => item.kind === 'unknown_debit');
    expect(unknown).toEqual({
      id: expect.any(Number),
      kind: 'unknown_debit',
      at: expect.any(String),
      reason: "the bank's statement debited 999.99 that no transfer explains",
      statement: {
        importId: imported.json.id,
        account: FROM_CVU,
        line: 5,
        date: day,
        amount: '-999.99',
        reference: 'CARGO-77',
        description: 'comisión',
      },
      resolution: null,
    });
    // One kind's anomalies: the debit alone (3801 is within its grace: not missing yet); a kind giro does not know is
    // refused, naming the field, its rule and the kinds it takes.
    const ofKind = async (kind: string) =>
      (await r.request('GET', `/admin/anomalies?kind=${kind}&limit=1`)).json as { items: unknown[]; nextCursor: null };
    expect(await ofKind('unknown_debit')).toEqual({ items: [unknown], nextCursor: null });
    expect(await ofKind('missing_in_statement')).toEqual({ items: [], nextCursor: null });
    const badKind = await r.request('GET', '/admin/anomalies?kind=late');
    expect(badKind.status).toBe(400);
    expect(badKind.json).toMatchObject({
      code: 'VALIDATION_FAILED',
      violations: [
        {
          field: 'kind',
          rule: 'isIn',
          params: { allowed: ['counterparty_mismatch', 'amount_mismatch', 'missing_in_statement', 'unknown_debit'] },
        },
      ],
    });
    const openBefore = (await r.request('GET', '/admin/overview')).json.anomaliesOpen;
    const resolved = await r.request('POST', `/admin/anomalies/unknown-debits/${unknown.id}/resolve`, {
      body: { note: 'bank fee' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json.resolution).toMatchObject({ note: 'bank fee' });
    expect((await r.request('GET', '/admin/overview')).json.anomaliesOpen).toBe(openBefore - 1);
    const twice = await r.request('POST', `/admin/anomalies/unknown-debits/${unknown.id}/resolve`, {
      body: { note: 'again' },
    });
    expect(twice.json).toMatchObject({ code: 'ANOMALY_ALREADY_RESOLVED' });

    const again = await post();
    expect(again.status).toBe(200);
    expect(again.json).toEqual(imported.json);
    const listed = await r.request('GET', '/admin/statements');
    expect(listed.json.items.map((item: { id: string }) => item.id)).toEqual([imported.json.id]);
    expect((await r.request('GET', `/admin/statements/${imported.json.id}`)).json).toEqual(imported.json);
    expect((await r.request('GET', '/admin/statements/00000000-0000-0000-0000-000000000000')).json).toMatchObject({
      code: 'STATEMENT_NOT_FOUND',
    });
  });

  it('refuses a line it cannot read, naming it, and stores nothing', async () => {
    const refused = await r.request('POST', `/admin/statements?account=${FROM_CVU}`, {
      rawBody: 'date,amount,reference\n2026-11-23,-1,A\n2026-11-31,-2,B\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.violations).toEqual([
      expect.objectContaining({ field: 'date', rule: 'statement_date', params: { row: 3, value: '2026-11-31' } }),
    ]);
    expect((await r.request('GET', '/admin/statements')).json.items).toEqual([]);
  });
});
