import { seededRandom } from './search-measure';
import { searchPlanFromArgs } from './search-plan';
import { buenosAiresDay, decimal } from './search-queries';
import { type EngineRun, renderSearchReport, searchGoals, summarizeKind } from './search-report';

describe('search bench', () => {
  it('summarizes a kind: nearest-rank p50 and p99, the max, rows per page, the planned runs', () => {
    const samples = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(summarizeKind('k', samples, [50, 50, 20], 200)).toEqual({
      name: 'k',
      runs: 200,
      planned: 200,
      p50Ms: 100,
      p99Ms: 198,
      maxMs: 200,
      meanRows: 40,
    });
    expect(summarizeKind('none', [], [], 200).p99Ms).toBeNaN();
  });

  it('meets the goal per engine only when every kind is within 100 ms at p99, naming the others', () => {
    const kind = (name: string, p99Ms: number) => ({ ...summarizeKind(name, [1], [50], 1), p99Ms });
    const engine = (label: string, kinds: EngineRun['kinds']): EngineRun => ({
      label,
      movements: 1_000_000,
      historyRows: 3_000_000,
      seedSeconds: 60,
      bytes: 2 ** 30,
      kinds,
    });
    const [sqlite, postgres] = searchGoals([
      engine('SQLite', [kind('a', 100), kind('b', 3)]),
      engine('Postgres', [kind('a', 4), kind('text', 812.4)]),
    ]);
    expect(sqlite).toMatchObject({ met: true, measured: '2 of 2 kinds' });
    expect(postgres).toMatchObject({ met: false, measured: '1 of 2 kinds; not: text (812.4 ms)' });
    const report = renderSearchReport({
      mode: 'quick',
      machine: {
        cpuModel: 'cpu',
        cores: 2,
        memoryGiB: 8,
        node: 'v20',
        platform: 'linux x64',
        date: '2026-11-24T12:00:00Z',
      },
      durationSeconds: 10,
      pageSize: 50,
      engines: [engine('SQLite', [{ ...kind('slow', 130), runs: 12, planned: 200 }])],
      goals: [],
    });
    expect(report).toContain('search-main.js --quick`, 2026-11-24 12:00 UTC');
    expect(report).toContain('12 (time limit)');
  });

  it('plans the issue sizes by default and a tenth of them with --quick', () => {
    expect(searchPlanFromArgs([])).toMatchObject({ sqliteMovements: 1_000_000, postgresMovements: 10_000_000 });
    expect(searchPlanFromArgs(['--quick', '--only', 'sqlite'])).toMatchObject({
      sqliteMovements: 100_000,
      engines: ['sqlite'],
    });
    expect(() => searchPlanFromArgs(['--quick', '--full'])).toThrow(/exclude/);
    expect(() => searchPlanFromArgs(['--only', 'mysql'])).toThrow(/usage/);
  });

  it("turns a time into its Buenos Aires day (UTC−3) and cents into the API's decimal", () => {
    // 2026-11-24 02:30 UTC is still the 23rd in Buenos Aires.
    expect(buenosAiresDay(Date.UTC(2026, 10, 24, 2, 30))).toEqual({
      createdFrom: new Date(Date.UTC(2026, 10, 23, 3)),
      createdBefore: new Date(Date.UTC(2026, 10, 24, 3)),
    });
    expect(buenosAiresDay(Date.UTC(2026, 10, 24, 3), 30).createdFrom).toEqual(new Date(Date.UTC(2026, 9, 26, 3)));
    expect([decimal(1), decimal(123_450), decimal(10_000)]).toEqual(['0.01', '1234.50', '100.00']);
  });

  it('draws the same sample from run to run', () => {
    const a = seededRandom(21);
    const b = seededRandom(21);
    const draws = Array.from({ length: 5 }, () => a());
    expect(draws).toEqual(Array.from({ length: 5 }, () => b()));
    expect(draws.every((u) => u >= 0 && u < 1)).toBe(true);
  });
});
