import type { LedgerEntry } from '@giro/sandbox-bank';
import { analyzeDiscipline, minimumLookups } from './discipline-analysis';

const RULES = { minIntervalMs: 1_000, delayedMinIntervalMs: 4_000 };
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** A ledger entry with states entered at the given offsets and lookups at the given offsets. */
function entry(
  states: [LedgerEntry['status'], number][],
  lookups: [number, LedgerEntry['lookups'][number]['answered']][],
): LedgerEntry {
  return {
    originId: 1,
    id: 'mov-1',
    networkId: 'N1',
    debinId: 'DEBINN1',
    scenario: 'normal',
    status: states.at(-1)?.[0] ?? 'CREATED',
    createdAt: at(0),
    states: states.map(([status, ms]) => ({ status, at: at(ms) })),
    creationAnswer: 'delivered',
    duplicateRequests: 0,
    lookups: lookups.map(([ms, answered]) => ({ at: at(ms), answered })),
  };
}

describe('minimumLookups', () => {
  const timeline = (states: [LedgerEntry['status'], number][]) =>
    states.map(([status, ms]) => ({ status, atMs: T0 + ms }));

  it('polls every minimum interval from the creation answer until a final answer', () => {
    // Lookups at 1, 2, 3, 4, 5 s: the one at 5 s sees COMPLETED (entered at 4.5 s).
    expect(
      minimumLookups(
        timeline([
          ['CREATED', 0],
          ['IN_PROGRESS', 1_500],
          ['COMPLETED', 4_500],
        ]),
        RULES,
      ),
    ).toBe(5);
    // Exactly on the change counts as seeing it.
    expect(
      minimumLookups(
        timeline([
          ['CREATED', 0],
          ['IN_PROGRESS', 1_000],
          ['COMPLETED', 3_000],
        ]),
        RULES,
      ),
    ).toBe(3);
  });

  it('waits strictly more than the DELAYED interval after a DELAYED answer', () => {
    // 1 s CREATED, 2 s DELAYED (entered 1.5 s), then 6.001 s COMPLETED (entered 5.5 s).
    expect(
      minimumLookups(
        timeline([
          ['CREATED', 0],
          ['DELAYED', 1_500],
          ['COMPLETED', 5_500],
        ]),
        RULES,
      ),
    ).toBe(3);
    // The same, COMPLETED entered just after 6.001 s: one more DELAYED answer and wait.
    expect(
      minimumLookups(
        timeline([
          ['CREATED', 0],
          ['DELAYED', 1_500],
          ['COMPLETED', 6_500],
        ]),
        RULES,
      ),
    ).toBe(4);
  });

  it('needs none when the creation answer was already final', () => {
    expect(minimumLookups(timeline([['COMPLETED', 0]]), RULES)).toBe(0);
  });

  it('refuses a movement that is not final yet (its minimum is unknown)', () => {
    expect(() => minimumLookups(timeline([['CREATED', 0]]), RULES)).toThrow(/not reached a final state/);
  });
});

describe('analyzeDiscipline', () => {
  it('compares the lookups made with the minimum, and measures how long each change went unseen', () => {
    const figures = analyzeDiscipline(
      [
        // Minimum 5; 6 lookups. Changes at 1.5 s (seen at 2.2 s) and 4.5 s (seen at 5.3 s).
        entry(
          [
            ['CREATED', 0],
            ['IN_PROGRESS', 1_500],
            ['COMPLETED', 4_500],
          ],
          [
            [1_100, 'CREATED'],
            [2_200, 'IN_PROGRESS'],
            [3_300, 'IN_PROGRESS'],
            [4_400, 'IN_PROGRESS'],
            [5_300, 'COMPLETED'],
            [5_400, 'COMPLETED'],
          ],
        ),
        // Minimum 3; 3 lookups. Out of CREATED at 1.5 s (seen 1.6 s); out of DELAYED at 5.5 s (seen 7 s).
        entry(
          [
            ['CREATED', 0],
            ['DELAYED', 1_500],
            ['COMPLETED', 5_500],
          ],
          [
            [1_000, 'CREATED'],
            [1_600, 'DELAYED'],
            [7_000, 'COMPLETED'],
          ],
        ),
      ],
      RULES,
    );
    expect(figures).toMatchObject({ movements: 2, unsettled: 0, queries: 9, minimumQueries: 8, undetectedChanges: 0 });
    expect(figures.queriesOverMinimum).toBeCloseTo(9 / 8);
    // Lags after CREATED / IN_PROGRESS: 700, 800, 100 ms.
    expect(figures.lagP50Ms).toBe(700);
    expect(figures.lagP99Ms).toBe(800);
    expect(figures.lagP99OverInterval).toBeCloseTo(0.8);
    expect(figures.delayedLagP99Ms).toBe(1_500);
  });

  it('leaves movements not final yet out of the query counts, and counts changes no lookup came after', () => {
    const figures = analyzeDiscipline(
      [
        entry(
          [
            ['CREATED', 0],
            ['IN_PROGRESS', 1_500],
          ],
          [[1_000, 'CREATED']],
        ),
      ],
      RULES,
    );
    expect(figures).toMatchObject({ unsettled: 1, queries: 0, minimumQueries: 0, undetectedChanges: 1 });
    expect(figures.lagP99Ms).toBeNaN();
  });
});
