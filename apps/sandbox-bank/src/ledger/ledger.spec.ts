import { amountFromCents } from '@giro/transfer-module/domain';
import { ManualClock } from '@giro/transfer-module/testing';
import { DEFAULT_SANDBOX_CONFIG } from '../config/sandbox-config';
import { Counters } from './counters';
import { Ledger } from './ledger';
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

describe('scenarioOf', () => {
  it('reads the tags of a description', () => {
    expect(scenarioOf('rent')).toEqual({ outcome: 'complete', reject: false, lost: false });
    expect(scenarioOf('rent [FAIL]')).toEqual({ outcome: 'fail', reject: false, lost: false });
    expect(scenarioOf('[delay][lost]')).toEqual({ outcome: 'delay', reject: false, lost: true });
    expect(scenarioOf('[reject]').reject).toBe(true);
  });
});
