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
    const result = await closedLoop(
      2,
      1_000,
      async () => {
        await sleep(20);
      },
      { untilMs: 50 },
    );
    // Two callers, 20 ms each, starting until 50 ms: at 0, 20 and 40 ms, so six operations.
    expect(result.completed).toBeGreaterThanOrEqual(4);
    expect(result.completed).toBeLessThanOrEqual(8);
    expect(result.durationMs).toBeLessThan(200);
  });
});
