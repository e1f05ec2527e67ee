import { setTimeout as sleep } from 'node:timers/promises';
import { closedLoop } from './load';

describe('closedLoop', () => {
  it('runs every operation once, never more than `concurrency` at a time', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const seen: number[] = [];
    const result = await closedLoop(3, 10, async (index) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(2);
      seen.push(index);
      running -= 1;
    });
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mostAtOnce).toBe(3);
    expect(result.completed).toBe(10);
    expect(result.latenciesMs).toHaveLength(10);
    expect(Math.min(...result.latenciesMs)).toBeGreaterThanOrEqual(1);
    expect(result.durationMs).toBeGreaterThanOrEqual(Math.max(...result.latenciesMs));
  });

  it('counts failed operations apart, keeping the first reason, and goes on', async () => {
    const result = await closedLoop(2, 6, async (index) => {
      if (index % 3 === 0) throw new Error(`operation ${index} failed`);
    });
    expect(result).toMatchObject({ completed: 4, errors: 2, firstError: 'operation 0 failed' });
    expect(result.latenciesMs).toHaveLength(4);
  });

  it('starts no operation after `untilMs`, letting those under way finish', async () => {
    // A fake clock: each operation lasts 20 ms of it.
    let clock = 0;
    const result = await closedLoop(
      2,
      1_000,
      async () => {
        const began = clock;
        await Promise.resolve();
        clock = Math.max(clock, began + 20);
      },
      { untilMs: 50, now: () => clock },
    );
    // Two callers starting until 50 ms: at 0, 20 and 40 ms, so six operations; those of 40 end at 60.
    expect(result).toMatchObject({ completed: 6, errors: 0, durationMs: 60 });
    expect(result.latenciesMs).toEqual([20, 20, 20, 20, 20, 20]);
  });
});
