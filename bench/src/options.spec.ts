import { planFromArgs, UsageError } from './options';

describe('planFromArgs', () => {
  it('runs every section unless --only names one, with any mode and preset', () => {
    expect(planFromArgs(['--quick']).only).toBeUndefined();
    const plan = planFromArgs(['--hmac-preset', 'single-header', '--only', 'postgres-sweep', '--quick']);
    expect(plan).toMatchObject({ mode: 'quick', only: 'postgres-sweep', hmac: { preset: 'single-header' } });
    expect(planFromArgs(['--only', 'sweep']).only).toBe('sweep');
    expect(planFromArgs(['--quick', '--only', 'create', '--profile'])).toMatchObject({
      mode: 'quick',
      only: 'create',
      profile: true,
    });
  });

  it('refuses --only without a known section after it', () => {
    expect(() => planFromArgs(['--only'])).toThrow(UsageError);
    expect(() => planFromArgs(['--only', 'webhooks'])).toThrow(
      /--only must be followed by create or sweep or postgres-sweep/,
    );
    expect(() => planFromArgs(['--quick', '--only', '--full'])).toThrow(UsageError);
  });
});
