import { planFromArgs, UsageError } from './options';

describe('planFromArgs', () => {
  it('runs every section unless --only names one, with any mode and preset', () => {
    expect(planFromArgs(['--quick']).only).toBeUndefined();
    const plan = planFromArgs(['--hmac-preset', 'single-header', '--only', 'postgres-sweep', '--quick']);
    expect(plan).toMatchObject({ mode: 'quick', only: 'postgres-sweep', hmac: { preset: 'single-header' } });
    expect(planFromArgs(['--only', 'sweep']).only).toBe('sweep');
  });

  it('refuses --only without a known section after it', () => {
    expect(() => planFromArgs(['--only'])).toThrow(UsageError);
    expect(() => planFromArgs(['--only', 'create'])).toThrow(/--only must be followed by sweep or postgres-sweep/);
    expect(() => planFromArgs(['--quick', '--only', '--full'])).toThrow(UsageError);
  });
});
