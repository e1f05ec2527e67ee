import type { SandboxCounters } from '@giro/sandbox-bank';
import { awaitProcessedOnce } from './processed-once';

/** Counters that report `processed` from the list in turn (the last one from then on), on a fake clock. */
function sandbox(processed: number[], processedTwice = 0) {
  let time = 0;
  let reads = 0;
  const counters = async () => {
    const value = processed[Math.min(reads, processed.length - 1)];
    reads += 1;
    return { processed: value, processedTwice, duplicates: 0 } as SandboxCounters;
  };
  const clock = {
    now: () => time,
    sleep: async (ms: number) => {
      time += ms;
    },
    timeoutMs: 1_000,
  };
  return { counters, clock, reads: () => reads };
}

describe('awaitProcessedOnce', () => {
  it('waits for the sandbox to process the requests still on their way', async () => {
    const { counters, clock, reads } = sandbox([2_497, 2_499, 2_500]);
    await expect(awaitProcessedOnce(counters, 2_500, { unanswered: 0, ...clock })).resolves.toEqual({
      processed: 2_500,
      missing: 0,
    });
    expect(reads()).toBe(3);
  });

  it('accepts a sandbox short of at most the transfers the workers ended without an answer, once it stops moving', async () => {
    const { counters, clock } = sandbox([2_498, 2_499]);
    await expect(awaitProcessedOnce(counters, 2_500, { unanswered: 1, ...clock })).resolves.toEqual({
      processed: 2_499,
      missing: 1,
    });
  });

  it('refuses fewer than that, more than expected, or any transfer processed twice', async () => {
    await expect(
      awaitProcessedOnce(sandbox([2_498]).counters, 2_500, { unanswered: 1, ...sandbox([]).clock }),
    ).rejects.toThrow('the sandbox processed 2498 transfers (0 twice, 0 repeated originIds answered), expected 2500');
    await expect(
      awaitProcessedOnce(sandbox([2_501]).counters, 2_500, { unanswered: 0, ...sandbox([]).clock }),
    ).rejects.toThrow('processed 2501 transfers');
    await expect(
      awaitProcessedOnce(sandbox([2_500], 1).counters, 2_500, { unanswered: 0, ...sandbox([]).clock }),
    ).rejects.toThrow('(1 twice');
  });
});
