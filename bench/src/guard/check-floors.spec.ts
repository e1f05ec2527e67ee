import type { CreateRun } from '../create/run-create';
import { summarizeCreate, summarizeSweep } from '../report/results';
import type { SweepRun } from '../sweep/run-sweep';
import { checkFloors, failureMessages, renderVerdicts } from './check-floors';
import type { GuardFloor, GuardResults } from './guard-floors';
import { GUARD_FLOORS } from './guard-floors';

/** A results file as the guard writes it (NaN becomes null in JSON), from runs at the given rates per second. */
function resultsFile(rates: {
  create: Record<'limit' | 'giro' | 'peer', number>;
  sqlite: Record<SweepRun['system'], number>;
  postgres: Record<1 | 4, number> | null;
}): GuardResults {
  const createRun = (system: 'limit' | 'giro' | 'peer') => ({
    system,
    concurrency: 64,
    perSecond: rates.create[system],
  });
  const sweepRun = (system: SweepRun['system'], processes: number, perSecond: number, engine = 'sqlite') => ({
    engine,
    system,
    processes,
    backlog: 100_000,
    perSecond,
    peakRssMiB: [150],
  });
  const postgres = rates.postgres
    ? [sweepRun('giro', 1, rates.postgres[1], 'postgres'), sweepRun('giro', 4, rates.postgres[4], 'postgres')]
    : { skipped: 'no Postgres server answered' };
  const written = {
    create: summarizeCreate((['limit', 'giro', 'peer'] as const).map(createRun) as CreateRun[]),
    sweep: summarizeSweep(
      {
        sqlite: [sweepRun('limit', 1, rates.sqlite.limit), sweepRun('giro', 1, rates.sqlite.giro)] as SweepRun[],
        postgres: postgres as SweepRun[] | { skipped: string },
      },
      8_000,
      { inFlight: 16, latencyMs: 20 },
    ),
  };
  return JSON.parse(JSON.stringify(written, (_key, value) => (Number.isNaN(value) ? null : value)));
}

/** Every figure comfortably above its floor: giro ÷ peer 5, ÷ limit 1.6, SQLite 1.5, Postgres 4 ÷ 1 3.3. */
const healthy = {
  create: { limit: 2_000, giro: 3_200, peer: 640 },
  sqlite: { limit: 2_400, giro: 3_600 },
  postgres: { 1: 600, 4: 1_980 },
};

const figure = (name: string) => GUARD_FLOORS.find((floor) => floor.figure === name) as GuardFloor;

describe('checkFloors', () => {
  it('passes a run whose every ratio is above its floor, reading each where the bench writes it', () => {
    const verdicts = checkFloors(resultsFile(healthy));
    expect(verdicts.map(({ value }) => value?.toFixed(2))).toEqual(['5.00', '1.60', '1.50', '3.30']);
    expect(verdicts.every(({ passed }) => passed)).toBe(true);
    expect(failureMessages(verdicts)).toEqual([]);
  });

  it('passes a figure exactly at its floor and fails one just under it', () => {
    const floor = figure('sweep Postgres, 4 processes ÷ 1');
    const at = checkFloors({ sweep: { postgres: { scaling: floor.floor } } }, [floor]);
    const under = checkFloors({ sweep: { postgres: { scaling: floor.floor - 0.01 } } }, [floor]);
    expect(at[0].passed).toBe(true);
    expect(under[0].passed).toBe(false);
  });

  it('fails a halved create rate, naming the figure, its value, its floor and its goal', () => {
    // The quiet AMD EPYC run the create floors were set from (giro 1 887/s, limit 2 206/s, peer 822/s), giro halved.
    const halved = resultsFile({ ...healthy, create: { limit: 2_200, giro: 946, peer: 860 } });
    const verdicts = checkFloors(halved);
    expect(verdicts.filter(({ passed }) => !passed).map(({ floor }) => floor.figure)).toEqual([
      'create c=64, giro ÷ naive peer',
      'create c=64, giro ÷ limit',
    ]);
    const [peerMessage, limitMessage] = failureMessages(verdicts);
    expect(peerMessage).toMatch(/^create c=64, giro ÷ naive peer: 1\.10× is below its floor 1\.50× \(goal 4\.00×\): /);
    expect(limitMessage).toMatch(/^create c=64, giro ÷ limit: 0\.43× is below its floor 0\.50× \(goal 1\.50×\): /);
  });

  it('fails a halved sweep on either engine', () => {
    const sqliteHalved = resultsFile({ ...healthy, sqlite: { limit: 2_400, giro: 1_800 } });
    const postgresFlat = resultsFile({ ...healthy, postgres: { 1: 600, 4: 630 } });
    const failed = (results: GuardResults) =>
      checkFloors(results)
        .filter(({ passed }) => !passed)
        .map(({ floor }) => floor.figure);
    expect(failed(sqliteHalved)).toEqual(['sweep SQLite, 100 000 due, giro ÷ limit']);
    expect(failed(postgresFlat)).toEqual(['sweep Postgres, 4 processes ÷ 1']);
  });

  it('fails a figure the run does not have: Postgres skipped, a section absent, a rate not measured', () => {
    const skipped = checkFloors(resultsFile({ ...healthy, postgres: null }));
    expect(skipped.map(({ passed }) => passed)).toEqual([true, true, true, false]);
    expect(failureMessages(skipped)).toEqual([
      'sweep Postgres, 4 processes ÷ 1: missing from the results (not measured), floor 1.70×, goal 3.00×',
    ]);

    const noSweep = checkFloors({ create: resultsFile(healthy).create });
    expect(noSweep.map(({ value }) => value)).toEqual([expect.any(Number), expect.any(Number), null, null]);

    const peerNotMeasured = resultsFile({ ...healthy, create: { limit: 2_000, giro: 3_200, peer: Number.NaN } });
    expect(checkFloors(peerNotMeasured)[0]).toMatchObject({ value: null, passed: false });
    expect(checkFloors({ create: { ratioToPeer: '5' } })[0]).toMatchObject({ value: null, passed: false });
  });

  it('prints one row per figure with its value, floor, goal and verdict', () => {
    const table = renderVerdicts(checkFloors(resultsFile({ ...healthy, postgres: { 1: 600, 4: 630 } })));
    const rows = table.split('\n').slice(2);
    expect(rows).toHaveLength(GUARD_FLOORS.length);
    expect(rows[0]).toMatch(/create c=64, giro ÷ naive peer +\| +5\.00× \| +1\.50× \| +4\.00× \| pass/);
    expect(rows[3]).toMatch(/sweep Postgres, 4 processes ÷ 1 +\| +1\.05× \| +1\.70× \| +3\.00× \| \*\*FAIL\*\*/);
  });
});
