import { transferRequest } from '@test-support/giro-harness';

// The transfers of a chaos run: a seeded mix of the sandbox bank's scenarios, each with an originId of its
// own chosen by the host (the driver), and what must become of it.

export const SCENARIOS = {
  normal: { tags: '', weight: 55, final: 'COMPLETED', goesOut: true },
  fail: { tags: '[fail]', weight: 15, final: 'FAILED', goesOut: true },
  delay: { tags: '[delay]', weight: 10, final: 'COMPLETED', goesOut: true },
  reject: { tags: '[reject]', weight: 8, final: 'FAILED', goesOut: false },
  lost: { tags: '[lost]', weight: 6, final: 'COMPLETED', goesOut: true },
  'fail+lost': { tags: '[fail] [lost]', weight: 3, final: 'FAILED', goesOut: true },
  'delay+lost': { tags: '[delay] [lost]', weight: 3, final: 'COMPLETED', goesOut: true },
} as const;

export type Scenario = keyof typeof SCENARIOS;

export interface ChaosIntent {
  index: number;
  originId: number;
  scenario: Scenario;
  /** Unique per intent: how the checks tell intents apart, whatever originId they ended up with. */
  description: string;
  /** The JSON body of POST /admin/transfers, the same on every re-submission. */
  body: string;
}

/** `count` intents with consecutive originIds from `firstOriginId`. */
export function chaosIntents(count: number, firstOriginId: number, random: () => number): ChaosIntent[] {
  const entries = Object.entries(SCENARIOS) as [Scenario, (typeof SCENARIOS)[Scenario]][];
  const totalWeight = entries.reduce((sum, [, { weight }]) => sum + weight, 0);
  const pick = (): Scenario => {
    let draw = random() * totalWeight;
    for (const [scenario, { weight }] of entries) {
      draw -= weight;
      if (draw < 0) return scenario;
    }
    return 'normal';
  };
  return Array.from({ length: count }, (_, index) => {
    const scenario = pick();
    const originId = firstOriginId + index;
    const description = `chaos #${index} ${SCENARIOS[scenario].tags}`.trim();
    const cents = 1 + Math.floor(random() * 5_000_000);
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const body = JSON.stringify(transferRequest(description, { originId, amount }));
    return { index, originId, scenario, description, body };
  });
}
