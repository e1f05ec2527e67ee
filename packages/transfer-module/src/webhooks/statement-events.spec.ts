import { BankCalendar, businessDayOf } from '../domain';
import { MovementStore, type StatementLineInput } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { storeFixture, T0 } from '../persistence/testing/store-fixture';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { TransferEventOutbox } from './transfer-event-outbox';
import { WebhookWakeUp } from './webhook-wake-up';

const DAY = businessDayOf(new Date(T0));
const ACCOUNT = sampleIntent(1).intent.from.address;

describeEachEngine('the webhook events a statement raises', (engine) => {
  it('writes transfer.anomaly for an amount that differs and statement.unknown_debit once per bank line', async () => {
    const fixture = await storeFixture(engine);
    const wakeUp = new WebhookWakeUp();
    const notify = jest.spyOn(wakeUp, 'notify');
    const store = new MovementStore(fixture.dataSource, fixture.clock, { outbox: new TransferEventOutbox(wakeUp) });
    await store.recordIntent(sampleIntent(61).intent, sampleIntent(61).fingerprint, { sendNow: false });
    await store.claim(61, 'w', 30_000);
    await store.applyUpdate(61, 'w', {
      patch: { status: 'COMPLETED', networkId: 'NET-61' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: true,
    });
    const line = (number: number, cents: bigint, reference: string): StatementLineInput => ({
      line: number,
      date: DAY,
      amountCents: cents,
      reference,
      description: 'cargo',
    });
    async function* lines(items: StatementLineInput[]) {
      yield items;
    }
    const request = (sha: string) => ({
      account: ACCOUNT,
      sha256: sha.repeat(64),
      by: null,
      calendar: new BankCalendar(),
      graceDays: 2,
    });
    const events = async () =>
      (await fixture.dataSource.query('SELECT "type", "payload" FROM "giro_webhook_events" ORDER BY "seq"')).map(
        (row: { type: string; payload: string }) => ({ type: row.type, data: JSON.parse(row.payload).data }),
      );
    const before = (await events()).length;
    notify.mockClear();

    const first = await store.importStatement(
      request('a'),
      lines([line(2, -100n, 'NET-61'), line(3, -4200n, 'OTHER-DOOR')]),
    );
    const written = (await events()).slice(before);
    expect(written).toEqual([
      {
        type: 'transfer.anomaly',
        data: expect.objectContaining({ originId: 61, status: 'COMPLETED', kind: 'amount_mismatch' }),
      },
      {
        type: 'statement.unknown_debit',
        data: {
          statementId: first.id,
          account: ACCOUNT,
          line: { number: 3, date: DAY, amount: '-42.00', reference: 'OTHER-DOOR', description: 'cargo' },
        },
      },
    ]);
    expect(notify).toHaveBeenCalled();

    // An overlapping statement holding the same debit announces nothing again.
    await store.importStatement(request('b'), lines([line(7, -4200n, 'OTHER-DOOR')]));
    expect((await events()).slice(before)).toHaveLength(2);
  });
});
