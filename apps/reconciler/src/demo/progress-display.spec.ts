import { validateTransferIntent } from '@giro/transfer-module';
import { DEMO_SCENARIOS, demoBatch } from './demo-batch';
import { ProgressDisplay, type StatusCounts, statusLine, statusTable, webhookLine } from './progress-display';

const counts = (partial: Partial<StatusCounts>): StatusCounts => ({
  AWAITING_APPROVAL: 0,
  SCHEDULED: 0,
  PENDING: 0,
  CREATED: 0,
  IN_PROGRESS: 0,
  DELAYED: 0,
  COMPLETED: 0,
  FAILED: 0,
  REJECTED: 0,
  CANCELED: 0,
  ...partial,
});

class Capture {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

describe('the progress display', () => {
  it('draws one row per status with a bar proportional to its count, and the final total', () => {
    const lines = statusTable(counts({ CREATED: 5, COMPLETED: 3, FAILED: 2 }), 4200);
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(/^ {2}CREATED +5 {2}█{15}·{15}$/);
    expect(lines[0]).toMatch(/^ {2}PENDING +0 {2}·{30}$/);
    expect(lines[6]).toBe('  5/10 final after 4.2 s');
  });

  it('on a terminal, redraws the table in place instead of appending', () => {
    const out = new Capture(true);
    const display = new ProgressDisplay(out);
    display.update(counts({ CREATED: 2 }), 0);
    expect(out.text).not.toContain('\x1b[7F');
    display.update(counts({ COMPLETED: 2 }), 1000);
    const redraw = out.text.slice(out.text.indexOf('\x1b[7F'));
    expect(redraw.startsWith('\x1b[7F\x1b[2K  PENDING')).toBe(true);
    expect(redraw).toContain('2/2 final after 1.0 s');
  });

  it('elsewhere, prints a plain line only when the counts change', () => {
    const out = new Capture(false);
    const display = new ProgressDisplay(out);
    display.update(counts({ CREATED: 2 }), 0);
    display.update(counts({ CREATED: 2 }), 500);
    display.update(counts({ CREATED: 1, COMPLETED: 1 }), 1000);
    expect(out.text).not.toContain('\x1b');
    expect(out.text.split('\n').filter(Boolean)).toEqual([
      statusLine(counts({ CREATED: 2 }), 0),
      '1/2 final after 1.0 s — PENDING 0, CREATED 1, IN_PROGRESS 0, DELAYED 0, COMPLETED 1, FAILED 0',
    ]);
  });
});

describe("the demo receiver's webhooks in the display", () => {
  const tally = {
    received: 14,
    refused: 0,
    byType: { 'transfer.completed': 2, 'transfer.created': 10, 'transfer.status_changed': 2 },
  };

  it('count the verified events by type, in the order of the event types, and say when any was refused', () => {
    expect(webhookLine(tally)).toBe('  webhooks      14 verified — created 10 · status_changed 2 · completed 2');
    expect(webhookLine({ received: 0, refused: 0, byType: {} })).toBe('  webhooks       0 verified');
    expect(webhookLine({ ...tally, refused: 1 })).toContain('14 verified, 1 REFUSED (bad signature) — created 10');
  });

  it('add a line under the table on a terminal, and the count at the end of a plain line elsewhere', () => {
    const tty = new Capture(true);
    new ProgressDisplay(tty).update(counts({ CREATED: 2 }), 0, tally);
    expect(tty.text.trimEnd().split('\n').at(-1)).toBe(`\x1b[2K${webhookLine(tally)}`);
    const plain = new Capture(false);
    const display = new ProgressDisplay(plain);
    display.update(counts({ CREATED: 2 }), 0, tally);
    display.update(counts({ CREATED: 2 }), 0, { ...tally, received: 15 });
    expect(plain.text).toBe(`${statusLine(counts({ CREATED: 2 }), 0)} — webhooks verified 14\n`);
  });
});

describe('the demo batch', () => {
  it('covers every sandbox scenario with requests the domain accepts', () => {
    const batch = demoBatch();
    expect(new Set(batch.map((transfer) => transfer.scenario.tag))).toEqual(new Set(DEMO_SCENARIOS.map((s) => s.tag)));
    for (const transfer of batch) {
      const result = validateTransferIntent(transfer.request);
      expect(result).toMatchObject({ ok: true });
      expect(transfer.request.body.description).toContain(transfer.scenario.tag);
    }
  });
});
