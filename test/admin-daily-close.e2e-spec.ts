import { businessDayBounds, businessDayOf, isFinalStatus } from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import { Workbook } from 'exceljs';
import { describeOnEachEngine } from './support/engines';
import {
  FROM_CVU,
  sandboxClientOptions,
  startTestReconciler,
  type TestReconciler,
  testCertificates,
  transferRequest,
} from './support/reconciler-harness';

// The daily close end to end: the reconciler in process on each engine, the sandbox bank on the same manual
// clock. A day of transfers — completed, failed, one DELAYED past the day's end, one created in its last minute —,
// swept as the sweep would, then the day's close read through the admin API against the bank's own ledger (its
// inspection surface for the states and their times, its movement API for the amounts).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** `"1234.50"` in cents, and back: amounts added exactly. */
const centsOf = (amount: string) => BigInt(amount.replace('.', ''));
const amountOf = (cents: bigint) => {
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

describeOnEachEngine('the daily close over the admin API', (engine) => {
  let r: TestReconciler;
  let bankClient: BankClient;
  let day: string;
  let viewer: string;

  beforeAll(async () => {
    r = await startTestReconciler({
      databaseUrl: await engine.createDatabaseUrl(),
      // A DELAYED transfer completes two days later: still pending when its day ends.
      sandboxConfig: { timings: { createdMs: 2 * SECOND, inProgressMs: 6 * SECOND, delayedMs: 48 * HOUR } },
    });
    bankClient = new BankClient({ ...sandboxClientOptions(r.bank.url, await testCertificates()), clock: r.clock });
    const made = await r.request('POST', '/admin/keys', { body: { name: 'reader', role: 'viewer' } });
    viewer = made.json.key;

    // The next Buenos Aires day, from 09:00: the clock only goes forward.
    day = businessDayOf(new Date(businessDayBounds(businessDayOf(r.clock.now())).end.getTime()));
    const { start, end } = businessDayBounds(day);
    r.clock.set(start.getTime() + 9 * HOUR);
    const outcomes = ['', '', '', '[fail]', '', '[fail]', '[delay]', ''];
    for (const [index, tag] of outcomes.entries()) {
      const amount = `${(index + 1) * 1000 + 17}.${String(index * 7).padStart(2, '0')}`;
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ amount, description: `close ${index} ${tag}` }),
      });
      expect(created.status).toBe(201);
      r.clock.advance(3 * MINUTE);
    }
    await sweepFor(30 * MINUTE);
    // In the day's last minute: the bank completes it after midnight.
    r.clock.set(end.getTime() - 2 * SECOND);
    expect((await r.request('POST', '/admin/transfers', { body: transferRequest({ amount: '99.99' }) })).status).toBe(
      201,
    );
    r.clock.set(end.getTime() + HOUR);
    await sweepFor(MINUTE);
  }, 120_000);
  afterAll(async () => {
    await bankClient?.close();
    await r?.close();
  });

  /** Sweeps as the reconciler's schedule would, every 6 s of the clock, for `duration`. */
  async function sweepFor(duration: number): Promise<void> {
    for (let elapsed = 0; elapsed < duration; elapsed += 6 * SECOND) {
      r.clock.advance(6 * SECOND);
      expect((await r.request('POST', '/admin/reconcile')).status).toBeLessThan(300);
    }
  }

  /** The day's figures as the bank's ledger gives them: what it received, completed and failed in the day, and what was not final at its end. */
  async function ledgerFigures() {
    const { start, end } = businessDayBounds(day);
    const inDay = (at: string) => Date.parse(at) >= start.getTime() && Date.parse(at) < end.getTime();
    const entries = r.bank.ledger.page({ limit: 1000 }).entries;
    const amounts = new Map<number, string>();
    for (const entry of entries) {
      const { amount } = await bankClient.getMovement({ originId: entry.originId });
      if (amount === undefined) throw new Error(`the bank gave no amount for ${entry.originId}`);
      amounts.set(entry.originId, amount);
    }
    const tally = (chosen: typeof entries) => ({
      count: chosen.length,
      amount: amountOf(chosen.reduce((sum, entry) => sum + centsOf(amounts.get(entry.originId) ?? '0.00'), 0n)),
    });
    const reached = (status: string) =>
      entries.filter((entry) => entry.states.some((state) => state.status === status && inDay(state.at)));
    const finalBefore = (entry: (typeof entries)[number], at: number) =>
      entry.states.some((state) => isFinalStatus(state.status) && Date.parse(state.at) < at);
    return {
      created: tally(entries.filter((entry) => inDay(entry.createdAt))),
      completed: tally(reached('COMPLETED')),
      failed: tally(reached('FAILED')),
      pendingAtEnd: tally(
        entries.filter((entry) => Date.parse(entry.createdAt) < end.getTime() && !finalBefore(entry, end.getTime())),
      ),
    };
  }

  it("gives the bank's ledger totals for the day: created, completed, failed, pending at its end", async () => {
    const answer = await r.request('GET', `/admin/reports/daily?date=${day}`, { token: viewer });
    expect(answer.status).toBe(200);
    const ledger = await ledgerFigures();
    expect(ledger.created.count).toBe(9);
    expect(ledger.failed.count).toBe(2);
    expect(ledger.pendingAtEnd.count).toBe(2);
    const { totals } = answer.json;
    expect({
      created: { count: totals.created.count, amount: totals.created.amount },
      completed: { count: totals.completed.count, amount: totals.completed.amount },
      failed: { count: totals.failed.count, amount: totals.failed.amount },
      pendingAtEnd: { count: totals.pendingAtEnd.count, amount: totals.pendingAtEnd.amount },
    }).toEqual(ledger);
    expect(totals.sent).toEqual(totals.created);
    expect(totals.failed.unregistered).toEqual({ count: 2, amount: ledger.failed.amount });
    expect(answer.json.accounts).toEqual([expect.objectContaining({ account: FROM_CVU, ...totals })]);
    expect(answer.json).toMatchObject({ day, account: null });
  });

  it('answers one account, and an account with nothing in the day with no rows', async () => {
    const one = await r.request('GET', `/admin/reports/daily?date=${day}&account=${FROM_CVU}`);
    expect(one.json.accounts.map((row: { account: string }) => row.account)).toEqual([FROM_CVU]);
    const other = transferRequest().to.address;
    const none = await r.request('GET', `/admin/reports/daily?date=${day}&account=${other}`);
    expect(none.json).toMatchObject({
      account: other,
      accounts: [],
      totals: { created: { count: 0, amount: '0.00' } },
    });
  });

  it('writes the close as CSV, as CSV for Excel in Spanish, and as .xlsx: a row per account and the totals', async () => {
    const json = (await r.request('GET', `/admin/reports/daily?date=${day}`)).json;
    const csv = await r.request('GET', `/admin/reports/daily.csv?date=${day}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="giro-close-${day}.csv"`);
    const [header, account, total] = csv.text
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    expect(header.slice(0, 4)).toEqual(['day', 'account', 'createdCount', 'createdAmount']);
    expect(account.slice(0, 4)).toEqual([day, FROM_CVU, String(json.totals.created.count), json.totals.created.amount]);
    expect(total[1]).toBe('total');
    expect(total[header.indexOf('completedAmount')]).toBe(json.totals.completed.amount);

    const spanish = await fetch(`${r.url}/admin/reports/daily.csv?date=${day}&dialect=excel-es`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    const text = Buffer.from(await spanish.arrayBuffer()).toString('utf8');
    expect(text.startsWith('\uFEFFDía;Cuenta origen;Creadas (cantidad);Creadas (importe)')).toBe(true);
    expect(text).toContain(`;${json.totals.created.amount.replace('.', ',')};`);

    const response = await fetch(`${r.url}/admin/reports/daily.xlsx?date=${day}`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(response.status).toBe(200);
    const workbook = new Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Cuenta origen');
    expect(sheet.getRow(3).getCell(2).value).toBe('Total');
    expect(sheet.getRow(3).getCell(4).value).toBe(Number(json.totals.created.amount));
  });

  it('refuses a missing or malformed day and an account that is not one, naming the field and the rule', async () => {
    const violationsOf = async (query: string) => {
      const answer = await r.request('GET', `/admin/reports/daily${query}`);
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('VALIDATION_FAILED');
      return answer.json.violations.map((violation: { field: string; rule: string }) => [
        violation.field,
        violation.rule,
      ]);
    };
    expect(await violationsOf('')).toEqual([['date', 'required']]);
    expect(await violationsOf('?date=2026-02-30')).toEqual([['date', 'day']]);
    expect(await violationsOf(`?date=${day}&account=123`)).toEqual([['account', 'cbu_cvu']]);
    expect(await violationsOf(`?date=${day}&colour=red`)).toEqual([['colour', 'unknown_field']]);
    expect((await r.request('GET', `/admin/reports/daily?date=${day}`, { token: null })).status).toBe(401);
  });
});
