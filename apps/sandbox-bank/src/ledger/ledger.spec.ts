import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amountFromCents } from '@giro/transfer-module/domain';
import { ManualClock } from '@giro/transfer-module/testing';
import { DEFAULT_SANDBOX_CONFIG } from '../config/sandbox-config';
import { Counters } from './counters';
import { Ledger } from './ledger';
import { LedgerJournal } from './ledger-journal';
import type { AcceptedTransfer } from './movement';
import { scenarioOf } from './scenario';

const transfer = (originId: number): AcceptedTransfer => ({
  originId,
  fromAddress: '0000003110000000000175',
  fromPersonId: '30712345671',
  toAddress: '2850590994009004181356',
  toPersonId: '20123456786',
  amount: amountFromCents(100n),
  description: '',
  concept: 'VAR',
});

describe('Ledger', () => {
  const timings = { createdMs: 1_000, inProgressMs: 2_000, delayedMs: 10_000 };
  const setup = () => {
    const counters = new Counters();
    const clock = new ManualClock(0);
    return { counters, clock, ledger: new Ledger(counters, clock) };
  };

  it('counts processedTwice (and refuses) if an originId reaches registration twice', () => {
    const { counters, ledger } = setup();
    ledger.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings);
    expect(() => ledger.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings)).toThrow(
      /already processed/,
    );
    expect(counters.processedTwice).toBe(1);
    expect(ledger.size).toBe(1);
  });

  it('derives the status from the clock for each outcome, with no timer', () => {
    const { ledger } = setup();
    const statuses = (outcome: 'complete' | 'fail' | 'delay', originId: number) => {
      const movement = ledger.register(transfer(originId), { outcome, lost: false }, 0, timings);
      return [0, 999, 1_000, 2_999, 3_000, 12_999, 13_000].map((ms) => movement.statusAt(ms));
    };
    expect(statuses('complete', 1)).toEqual([
      'CREATED',
      'CREATED',
      'IN_PROGRESS',
      'IN_PROGRESS',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
    ]);
    expect(statuses('fail', 2)).toEqual([
      'CREATED',
      'CREATED',
      'IN_PROGRESS',
      'IN_PROGRESS',
      'FAILED',
      'FAILED',
      'FAILED',
    ]);
    expect(statuses('delay', 3)).toEqual([
      'CREATED',
      'CREATED',
      'IN_PROGRESS',
      'IN_PROGRESS',
      'DELAYED',
      'DELAYED',
      'COMPLETED',
    ]);
  });

  it('resolves network and DEBIN ids of this ledger only', () => {
    const { ledger } = setup();
    const movement = ledger.register(transfer(9), { outcome: 'complete', lost: false }, 0, timings);
    const { networkId, debinId } = ledger.idsOf(movement);
    expect(ledger.findByNetworkId(networkId)).toBe(movement);
    expect(ledger.findByDebinId(debinId)).toBe(movement);
    expect(ledger.findByNetworkId(`X${networkId.slice(1)}`)).toBeUndefined();
    expect(ledger.findByNetworkId(networkId.replace(/1$/, '2'))).toBeUndefined();
  });

  it('shows only the states reached so far, and the lookups with their answers', () => {
    const { ledger, clock } = setup();
    const movement = ledger.register(transfer(4), { outcome: 'complete', lost: false }, 0, timings);
    ledger.recordLookup(movement, 1_500, 'IN_PROGRESS', DEFAULT_SANDBOX_CONFIG.polling, 'malformed');
    clock.set(1_500);
    expect(ledger.entry(4)).toMatchObject({
      status: 'IN_PROGRESS',
      states: [{ status: 'CREATED' }, { status: 'IN_PROGRESS' }],
      lookups: [{ at: '1970-01-01T00:00:01.500Z', answered: 'IN_PROGRESS', fault: 'malformed' }],
    });
  });
});

describe('Ledger with a journal', () => {
  const timings = { createdMs: 1_000, inProgressMs: 2_000, delayedMs: 10_000 };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const open = (clock: ManualClock, file = join(dir, 'ledger.jsonl')) =>
    new Ledger(new Counters(), clock, new LedgerJournal(file));

  it('knows after a restart the movements it processed, with the same ids and the states their times give', () => {
    const clock = new ManualClock(0);
    const first = open(clock);
    const completed = first.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings);
    first.register(transfer(2), { outcome: 'fail', lost: true }, 500, timings);
    const ids = first.idsOf(completed);
    first.close();

    clock.set(60_000);
    const again = open(clock);
    expect(again.size).toBe(2);
    expect(again.entry(1)).toMatchObject({ ...ids, status: 'COMPLETED', scenario: 'normal' });
    expect(again.entry(2)).toMatchObject({
      status: 'FAILED',
      scenario: 'fail+lost',
      createdAt: new Date(500).toISOString(),
    });
    expect(again.findByNetworkId(ids.networkId)?.transfer).toEqual(transfer(1));
    again.register(transfer(3), { outcome: 'delay', lost: false }, 60_000, timings);
    again.close();
    expect(open(clock).entry(3)).toMatchObject({ status: 'CREATED', scenario: 'delay' });
  });

  it('refuses an originId a previous run processed', () => {
    const clock = new ManualClock(0);
    const first = open(clock);
    first.register(transfer(7), { outcome: 'complete', lost: false }, 0, timings);
    first.close();
    expect(() => open(clock).register(transfer(7), { outcome: 'complete', lost: false }, 0, timings)).toThrow(
      /already processed/,
    );
  });

  it('starts its file over when reset, with new network ids', () => {
    const clock = new ManualClock(0);
    const file = join(dir, 'ledger.jsonl');
    const first = open(clock, file);
    const before = first.idsOf(first.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings));
    first.reset();
    const after = first.idsOf(first.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings));
    first.close();
    expect(after.networkId).not.toBe(before.networkId);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(open(clock, file).entry(1)).toMatchObject({ networkId: after.networkId });
  });

  it('skips a last line cut short by a stop in the middle of a write, and starts an empty or missing file anew', () => {
    const clock = new ManualClock(0);
    const file = join(dir, 'ledger.jsonl');
    const first = open(clock, file);
    first.register(transfer(1), { outcome: 'complete', lost: false }, 0, timings);
    first.close();
    appendFileSync(file, '{"transfer":{"originId":2,');
    const again = open(clock, file);
    expect(again.size).toBe(1);
    again.close();
    writeFileSync(file, '');
    expect(open(clock, file).size).toBe(0);
    expect(open(clock, join(dir, 'new.jsonl')).size).toBe(0);
    expect(readFileSync(join(dir, 'new.jsonl'), 'utf8')).toMatch(/^\{"idTag":"[0-9A-F]{6}"\}\n$/);
  });
});

describe('scenarioOf', () => {
  it('reads the tags of a description', () => {
    expect(scenarioOf('rent')).toEqual({ outcome: 'complete', reject: false, lost: false });
    expect(scenarioOf('rent [FAIL]')).toEqual({ outcome: 'fail', reject: false, lost: false });
    expect(scenarioOf('[delay][lost]')).toEqual({ outcome: 'delay', reject: false, lost: true });
    expect(scenarioOf('[reject]').reject).toBe(true);
  });
});
