import { DEFAULT_SANDBOX_CONFIG } from '../config/sandbox-config';
import { decideFault, FAULT_KINDS } from './fault-decision';
import { seededRandom } from './seeded-random';

describe('decideFault', () => {
  const noFaults = DEFAULT_SANDBOX_CONFIG.faults;

  it('never fires with all rates at 0, and always fires a rate of 1', () => {
    const random = seededRandom(3);
    for (let i = 0; i < 1000; i++) expect(decideFault(noFaults, random)).toBeUndefined();
    for (const kind of FAULT_KINDS) {
      const key = {
        'rate-limited': 'rateLimitRate',
        'server-error': 'serverErrorRate',
        'reset-before': 'resetBeforeRate',
        hang: 'hangRate',
        'reset-after': 'resetAfterRate',
        malformed: 'malformedRate',
      }[kind];
      expect(decideFault({ ...noFaults, [key]: 1 }, random)).toBe(kind);
    }
  });

  it('fires each fault at about its rate, the same way for the same seed', () => {
    const faults = { ...noFaults, serverErrorRate: 0.1, hangRate: 0.05, malformedRate: 0.2 };
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20_000 }, () => decideFault(faults, random));
    };
    const decisions = draw(11);
    expect(draw(11)).toEqual(decisions);
    expect(draw(12)).not.toEqual(decisions);
    const share = (kind: string | undefined) =>
      decisions.filter((decision) => decision === kind).length / decisions.length;
    expect(share('server-error')).toBeCloseTo(0.1, 1);
    expect(share('hang')).toBeCloseTo(0.05, 1);
    expect(share('malformed')).toBeCloseTo(0.2, 1);
    expect(share(undefined)).toBeCloseTo(0.65, 1);
  });
});
