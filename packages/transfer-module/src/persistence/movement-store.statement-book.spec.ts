import { ANOMALY_KIND_NAMES, type AnomalyKind, BankCalendar, businessDayOf } from '../domain';
import type { AnomalyListRecord } from './movement-anomalies';
import type { StatementImportRequest } from './statement-book';
import type { StatementLineInput, StatementReport } from './statement-records';
import { sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ACCOUNT = sampleIntent(1).intent.from.address;
const OPS = { keyId: '0123456789abcdef', name: 'ops' };
/** The Buenos Aires day of T0, when the fixture's transfers are created. */
const DAY = businessDayOf(new Date(T0));

describeEachEngine('MovementStore statements matched against the transfers', (engine) => {
  /** A transfer of ACCOUNT that ended COMPLETED, with the bank's networkId when given. */
  async function completed(fixture: StoreFixture, originId: number, networkId?: string, amount?: string) {
    const { store } = fixture;
    await fixture.record(originId, amount === undefined ? {} : { amount });
    await store.claim(originId, 'w', LEASE);
    await store.applyUpdate(originId, 'w', {
      patch: { status: 'COMPLETED', ...(networkId !== undefined && { networkId }) },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: true,
    });
  }

  function line(number: number, amount: string, reference: string, date = DAY): StatementLineInput {
    const [units, decimals] = amount.replace('-', '').split('.');
    const cents = BigInt(units) * 100n + BigInt(decimals ?? '0');
    return { line: number, date, amountCents: amount.startsWith('-') ? -cents : cents, reference, description: '' };
  }

  async function* batches(lines: StatementLineInput[]): AsyncGenerator<StatementLineInput[]> {
    for (let at = 0; at < lines.length; at += 2) yield lines.slice(at, at + 2);
  }

  function request(sha256: string, graceDays = 2): StatementImportRequest {
    return { account: ACCOUNT, sha256, by: OPS, calendar: new BankCalendar(), graceDays };
  }

  function named(report: StatementReport) {
    const pick = (items: StatementReport['matched']) =>
      items.map((item) => ({
        kind: item.kind,
        line: item.line?.number ?? null,
        originId: item.transfer?.originId ?? null,
      }));
    return {
      matched: pick(report.matched),
      onlyInStatement: pick(report.onlyInStatement),
      onlyInGiro: pick(report.onlyInGiro),
      amountMismatch: pick(report.amountMismatch),
    };
  }

  /** The transfers' anomalies (an unknown debit is about a line: unknownDebits). */
  async function anomalyKinds(fixture: StoreFixture) {
    const page = await fixture.store.listAnomalies({ limit: 100 });
    return page.items
      .flatMap((anomaly) =>
        'statement' in anomaly
          ? []
          : [{ originId: anomaly.originId, kind: (anomaly.detail as { kind?: string }).kind }],
      )
      .sort((a, b) => a.originId - b.originId);
  }

  /** The unknown debits in the anomaly list: the line that showed each, and whether it is resolved. */
  async function unknownDebits(fixture: StoreFixture) {
    const page = await fixture.store.listAnomalies({ limit: 100 });
    return page.items.flatMap((anomaly) =>
      'statement' in anomaly
        ? [
            {
              importId: anomaly.statement.importId,
              line: anomaly.statement.line,
              resolved: anomaly.resolution !== null,
            },
          ]
        : [],
    );
  }

  it('matches a debit by the transfer networkId, and by its originId when the bank gave none', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 1, 'NET-0001');
    await completed(fixture, 2);
    await completed(fixture, 3, 'NET-0003');
    const report = await fixture.store.importStatement(
      request('a'.repeat(64)),
      batches([line(2, '-1234.50', 'NET-0001'), line(3, '-1234.50', '2'), line(4, '500.00', 'DEPOSIT')]),
    );
    expect(named(report)).toEqual({
      matched: [
        { kind: 'matched', line: 2, originId: 1 },
        { kind: 'matched', line: 3, originId: 2 },
      ],
      onlyInStatement: [],
      onlyInGiro: [{ kind: 'missing_in_statement', line: null, originId: 3 }],
      amountMismatch: [],
    });
    expect(report).toMatchObject({
      lines: 3,
      periodFrom: DAY,
      periodTo: DAY,
      counts: { matched: 2, onlyInStatement: 0, onlyInGiro: 1, amountMismatch: 0 },
      by: OPS,
    });
    expect(report.matched[0].transfer).toEqual({ originId: 1, networkId: 'NET-0001', amount: '1234.50' });
    expect(report.matched[0].line).toEqual({ number: 2, date: DAY, amount: '-1234.50', reference: 'NET-0001' });
    // Within the grace: not yet an anomaly.
    expect(await anomalyKinds(fixture)).toEqual([]);
  });

  it('refuses as a match one line whose reference names two transfers', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 11, 'NET-SHARED');
    await completed(fixture, 12, 'NET-SHARED');
    const report = await fixture.store.importStatement(
      request('b'.repeat(64)),
      batches([line(2, '-1234.50', 'NET-SHARED')]),
    );
    expect(named(report)).toEqual({
      matched: [],
      onlyInStatement: [{ kind: 'ambiguous', line: 2, originId: null }],
      onlyInGiro: [
        { kind: 'missing_in_statement', line: null, originId: 11 },
        { kind: 'missing_in_statement', line: null, originId: 12 },
      ],
      amountMismatch: [],
    });
  });

  it('answers the same import for the same file, adding nothing', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 21, 'NET-21');
    const first = await fixture.store.importStatement(
      request('c'.repeat(64)),
      batches([line(2, '-1234.50', 'NET-21')]),
    );
    fixture.clock.advance(1_000);
    const again = await fixture.store.importStatement(
      request('c'.repeat(64)),
      batches([line(2, '-99.00', 'ignored: the file is the same')]),
    );
    expect(again).toEqual(first);
    const [{ count }] = await fixture.dataSource.query('SELECT COUNT(*) AS "count" FROM "giro_statement_lines"');
    expect(Number(count)).toBe(1);
    expect((await fixture.store.listStatementImports({ limit: 10 })).items.map((item) => item.id)).toEqual([first.id]);
  });

  it('answers one import when the same file is imported twice at once', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 25, 'NET-25');
    const lines = [line(2, '-1234.50', 'NET-25')];
    const [one, other] = await Promise.all([
      fixture.store.importStatement(request('9'.repeat(64)), batches(lines)),
      fixture.store.importStatement(request('9'.repeat(64)), batches(lines)),
    ]);
    expect(other.id).toBe(one.id);
    expect(other.counts).toEqual(one.counts);
    const [{ count }] = await fixture.dataSource.query('SELECT COUNT(*) AS "count" FROM "giro_statement_lines"');
    expect(Number(count)).toBe(1);
  });

  it('raises unknown_debit on the line, amount_mismatch and missing_in_statement on the transfers, once', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 31, 'NET-31');
    await completed(fixture, 32, 'NET-32');
    await completed(fixture, 33, 'NET-33');
    // Five days later (three business days and more): the grace of two has passed.
    fixture.clock.advance(5 * DAY_MS);
    const lines = [line(2, '-1234.50', 'NET-31'), line(3, '-1000.00', 'NET-32'), line(4, '-77.00', 'NOT-OURS')];
    const report = await fixture.store.importStatement(request('d'.repeat(64)), batches(lines));
    expect(named(report)).toEqual({
      matched: [{ kind: 'matched', line: 2, originId: 31 }],
      onlyInStatement: [{ kind: 'unknown_debit', line: 4, originId: null }],
      onlyInGiro: [{ kind: 'missing_in_statement', line: null, originId: 33 }],
      amountMismatch: [{ kind: 'amount_mismatch', line: 3, originId: 32 }],
    });
    expect(await anomalyKinds(fixture)).toEqual([
      { originId: 32, kind: 'amount_mismatch' },
      { originId: 33, kind: 'missing_in_statement' },
    ]);
    const movement = await fixture.store.findByOriginId(33);
    expect(movement?.status).toBe('COMPLETED');

    expect(await unknownDebits(fixture)).toEqual([{ importId: report.id, line: 4, resolved: false }]);
    expect(await fixture.store.countUnresolvedAnomalies()).toBe(3);

    // Another statement of the same day: the same lines again raise nothing new; 33 is raised once.
    fixture.clock.advance(1_000);
    await fixture.store.importStatement(request('e'.repeat(64)), batches([lines[1], line(2, '-77.00', 'NOT-OURS')]));
    expect(await anomalyKinds(fixture)).toHaveLength(2);
    expect(await unknownDebits(fixture)).toEqual([{ importId: report.id, line: 4, resolved: false }]);
  });

  it('lists an unknown debit with the anomalies, naming its line, and resolves it once', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 35, 'NET-35');
    fixture.clock.advance(5 * DAY_MS);
    const report = await fixture.store.importStatement(
      request('3'.repeat(64)),
      batches([line(2, '-1000.00', 'NET-35'), line(3, '-77.25', 'CARGO-9')]),
    );
    const [mismatch, unknown] = (await fixture.store.listAnomalies({ limit: 10 })).items;
    // Raised at the same moment: the transfer's first, then the line's.
    expect(mismatch).toMatchObject({ originId: 35 });
    expect(unknown).toEqual({
      id: expect.any(Number),
      kind: 'unknown_debit',
      at: new Date(fixture.clock.now().getTime()),
      statement: {
        importId: report.id,
        account: ACCOUNT,
        line: 3,
        date: DAY,
        amount: '-77.25',
        reference: 'CARGO-9',
        description: '',
      },
      resolution: null,
    });
    // One movement's anomalies: never an unknown debit.
    expect((await fixture.store.listAnomalies({ limit: 10, originId: 35 })).items).toEqual([mismatch]);

    fixture.clock.advance(1_000);
    const resolved = await fixture.store.resolveUnknownDebit(unknown.id, { note: 'bank fee', by: OPS });
    expect(resolved.resolution).toEqual({ at: fixture.clock.now(), by: OPS, note: 'bank fee' });
    await expect(fixture.store.resolveUnknownDebit(unknown.id, { note: 'again', by: OPS })).rejects.toMatchObject({
      name: 'AnomalyAlreadyResolvedError',
      resolution: { note: 'bank fee' },
    });
    await expect(fixture.store.resolveUnknownDebit(unknown.id + 1000, { note: 'x', by: OPS })).rejects.toMatchObject({
      name: 'AnomalyNotFoundError',
    });
    expect(await fixture.store.countUnresolvedAnomalies()).toBe(1);
    expect((await fixture.store.listAnomalies({ limit: 10, resolved: true })).items).toEqual([resolved]);
    expect((await fixture.store.listAnomalies({ limit: 10, resolved: false })).items).toEqual([mismatch]);
  });

  it('pages the anomalies of both kinds in one order, open ones first', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [61, 62, 63]) await completed(fixture, originId, `NET-${originId}`);
    fixture.clock.advance(5 * DAY_MS);
    // Each import at its own moment: a transfer's mismatch and an unknown debit at each, the last one resolved.
    for (const [at, originId] of [61, 62, 63].entries()) {
      fixture.clock.advance(1_000);
      await fixture.store.importStatement(
        // A long grace: the transfers not in a statement yet raise nothing here.
        request(String(at).repeat(64), 30),
        batches([line(2, '-1.00', `NET-${originId}`), line(3, '-5.00', `CARGO-${originId}`)]),
      );
    }
    const open = (await fixture.store.listAnomalies({ limit: 10, resolved: false })).items;
    const last = open.find((anomaly) => 'statement' in anomaly && anomaly.statement.reference === 'CARGO-63');
    await fixture.store.resolveUnknownDebit(last?.id as number, { note: 'known', by: OPS });
    const all = [];
    let after: string | undefined;
    do {
      const page = await fixture.store.listAnomalies({ limit: 2, ...(after !== undefined && { after }) });
      all.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    const names = all.map((anomaly) =>
      'statement' in anomaly
        ? `${anomaly.statement.reference}${anomaly.resolution ? ' resolved' : ''}`
        : anomaly.originId,
    );
    expect(names).toEqual([63, 62, 'CARGO-62', 61, 'CARGO-61', 'CARGO-63 resolved']);
  });

  it('filters the anomaly list by kind, each kind paged in the one order across open and resolved ones', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [81, 82, 83, 84, 85]) await completed(fixture, originId, `NET-${originId}`);
    // An answer naming another counterparty, recorded as the sender records it; a contradiction of the status, which
    // has no kind (its raw answer happens to hold the word of one); the same kind as 81's with its members in
    // another order, the nested word of another kind before its own (the filter reads the member, not the text).
    for (const [originId, detail] of [
      [81, { kind: 'counterparty_mismatch', reason: 'another CUIT', via: 'query', answer: { status: 'COMPLETED' } }],
      [82, { reason: 'FAILED after COMPLETED', via: 'query', answer: { kind: 'amount_mismatch' } }],
      [85, { via: 'query', answer: { kind: 'amount_mismatch' }, reason: 'another CBU', kind: 'counterparty_mismatch' }],
    ] as const) {
      await store.claim(originId, 'w', LEASE);
      await store.applyUpdate(originId, 'w', {
        patch: {},
        history: [{ to: 'FAILED', source: 'anomaly', detail }],
        releaseLease: true,
      });
    }
    // Five days later: 83 and 84 debited with other amounts, two debits no transfer explains, 81, 82 and 85 missing.
    clock.advance(5 * DAY_MS);
    await store.importStatement(
      request('a'.repeat(64)),
      batches([line(2, '-1.00', 'NET-83'), line(3, '-2.00', 'CARGO-1'), line(4, '-3.00', 'NET-84')]),
    );
    clock.advance(1_000);
    await store.importStatement(request('b'.repeat(64)), batches([line(2, '-4.00', 'CARGO-2')]));
    const kindOf = (anomaly: AnomalyListRecord) =>
      'statement' in anomaly ? anomaly.kind : ((anomaly.detail as { kind?: string } | null)?.kind ?? null);
    const open = (await store.listAnomalies({ limit: 100 })).items;
    await store.resolveAnomaly(open.find((anomaly) => kindOf(anomaly) === 'amount_mismatch')?.id as number, {
      note: 'the bank corrected it',
      by: OPS,
    });
    await store.resolveUnknownDebit(open.find((anomaly) => kindOf(anomaly) === 'unknown_debit')?.id as number, {
      note: 'a fee',
      by: OPS,
    });

    const pages = async (kind?: AnomalyKind) => {
      const seen: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.listAnomalies({ limit: 1, ...(kind && { kind }), ...(after && { after }) });
        seen.push(...page.items.map((anomaly) => `${kindOf(anomaly)}:${anomaly.id}:${anomaly.resolution !== null}`));
        after = page.nextCursor ?? undefined;
      } while (after !== undefined);
      return seen;
    };
    const all = await pages();
    expect(all).toHaveLength(10);
    const counts: Record<string, number> = {};
    for (const kind of ANOMALY_KIND_NAMES) {
      const only = await pages(kind);
      // The same items as the whole list's of that kind, in its order, without a gap or a repeat.
      expect(only).toEqual(all.filter((item) => item.startsWith(`${kind}:`)));
      counts[kind] = only.length;
    }
    expect(counts).toEqual({ counterparty_mismatch: 2, amount_mismatch: 2, missing_in_statement: 3, unknown_debit: 2 });
    // With the other filters: the resolved ones of a kind; one movement's (never an unknown debit).
    const resolvedMismatches = await store.listAnomalies({ limit: 10, kind: 'amount_mismatch', resolved: true });
    expect(resolvedMismatches.items.map(kindOf)).toEqual(['amount_mismatch']);
    expect((await store.listAnomalies({ limit: 10, kind: 'missing_in_statement', originId: 81 })).items).toEqual([
      expect.objectContaining({ originId: 81, detail: expect.objectContaining({ kind: 'missing_in_statement' }) }),
    ]);
    expect((await store.listAnomalies({ limit: 10, kind: 'unknown_debit', originId: 81 })).items).toEqual([]);

    await expect(store.listAnomalies({ limit: 10, kind: 'late' as AnomalyKind })).rejects.toMatchObject({
      field: 'kind',
      rule: 'enum',
      params: { allowed: ANOMALY_KIND_NAMES },
    });
  });

  it('raises no missing_in_statement within the grace', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 41, 'NET-41');
    fixture.clock.advance(DAY_MS);
    await fixture.store.importStatement(request('f'.repeat(64)), batches([line(2, '-9.00', 'OTHER')]));
    expect(await anomalyKinds(fixture)).toEqual([]);
  });

  it('counts a bank line once across overlapping statements, and a second line for a transfer is not a match', async () => {
    const fixture = await storeFixture(engine);
    await completed(fixture, 51, 'NET-51');
    await completed(fixture, 52, 'NET-52');
    const first = await fixture.store.importStatement(
      request('1'.repeat(64)),
      batches([line(2, '-1234.50', 'NET-51')]),
    );
    const second = await fixture.store.importStatement(
      request('2'.repeat(64)),
      batches([
        line(2, '-1234.50', 'NET-51'),
        line(3, '-1234.50', 'NET-52'),
        line(4, '-1234.50', 'NET-52', '2026-11-20'),
      ]),
    );
    expect(named(second)).toEqual({
      matched: [
        { kind: 'matched', line: 2, originId: 51 },
        { kind: 'matched', line: 3, originId: 52 },
      ],
      onlyInStatement: [{ kind: 'already_matched', line: 4, originId: 52 }],
      onlyInGiro: [],
      amountMismatch: [],
    });
    // Each transfer is confirmed by exactly one line: 51 by the first statement's.
    const rows: { matched_origin_id: unknown; import_id: string }[] = await fixture.dataSource.query(
      'SELECT "matched_origin_id", "import_id" FROM "giro_statement_lines" WHERE "matched_origin_id" IS NOT NULL ORDER BY "matched_origin_id"',
    );
    expect(rows.map((row) => [Number(row.matched_origin_id), row.import_id])).toEqual([
      [51, first.id],
      [52, second.id],
    ]);
    expect((await fixture.store.getStatementImport(second.id))?.counts).toEqual(second.counts);
  });

  it('matches each line once when two overlapping statements of an account are imported at once', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [71, 72, 73]) await completed(fixture, originId, `NET-${originId}`);
    const monday = [line(2, '-1234.50', 'NET-71'), line(3, '-1234.50', 'NET-72'), line(4, '-8.00', 'FEE-1')];
    // Another cut of the bank's lines: 72's line and the fee again, 73's, and a second line naming 71.
    const week = [
      line(2, '-1234.50', 'NET-72'),
      line(3, '-8.00', 'FEE-1'),
      line(4, '-1234.50', 'NET-73'),
      line(5, '-1234.50', 'NET-71', '2026-11-20'),
    ];
    const [one, other] = await Promise.all([
      fixture.store.importStatement(request('4'.repeat(64)), batches(monday)),
      fixture.store.importStatement(request('5'.repeat(64)), batches(week)),
    ]);
    expect(one.id).not.toBe(other.id);
    const rows: { matched_origin_id: unknown }[] = await fixture.dataSource.query(
      'SELECT "matched_origin_id" FROM "giro_statement_lines" WHERE "matched_origin_id" IS NOT NULL ORDER BY "matched_origin_id"',
    );
    expect(rows.map((row) => Number(row.matched_origin_id))).toEqual([71, 72, 73]);
    // Whichever went first: 71's, 72's (in both, the same bank line) and 73's lines match, 71's other line does not.
    expect(one.counts.matched + other.counts.matched).toBe(4);
    expect(one.counts.onlyInStatement + other.counts.onlyInStatement).toBe(3);
    expect(await unknownDebits(fixture)).toHaveLength(1);
  });

  it('pages the imports newest first', async () => {
    const fixture = await storeFixture(engine);
    const ids: string[] = [];
    for (const sha of ['7', '8', '9']) {
      fixture.clock.advance(1_000);
      ids.push((await fixture.store.importStatement(request(sha.repeat(64)), batches([line(2, '1.00', 'IN')]))).id);
    }
    const first = await fixture.store.listStatementImports({ limit: 2 });
    const second = await fixture.store.listStatementImports({ limit: 2, after: first.nextCursor as string });
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(ids.reverse());
    expect(second.nextCursor).toBeNull();
  });
});
