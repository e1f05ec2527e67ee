import { CachedCheck } from './cached-check';

describe('CachedCheck', () => {
  let now = 0;
  let runs = 0;
  let fail = false;
  const check = new CachedCheck(
    async () => {
      runs += 1;
      if (fail) throw new Error(`down (run ${runs})`);
      return `up (run ${runs})`;
    },
    5_000,
    () => now,
  );

  it('runs once per period, whatever the number of calls, concurrent ones included', async () => {
    expect(await Promise.all([check.get(), check.get(), check.get()])).toEqual([
      'up (run 1)',
      'up (run 1)',
      'up (run 1)',
    ]);
    now = 4_999;
    expect(await check.get()).toBe('up (run 1)');
    now = 5_000;
    expect(await check.get()).toBe('up (run 2)');
    expect(runs).toBe(2);
  });

  it('keeps a failure for the period too, then runs again', async () => {
    fail = true;
    now = 10_000;
    await expect(check.get()).rejects.toThrow('down (run 3)');
    now = 14_000;
    await expect(check.get()).rejects.toThrow('down (run 3)');
    fail = false;
    now = 15_000;
    expect(await check.get()).toBe('up (run 4)');
  });
});
