import { coresShare, replicasGoals, systemCpu } from './replicas-report';
import type { CreatePostgresRun } from './run-create-postgres';

const machine = { cpuModel: 'test', cores: 2, memoryGiB: 4, node: 'v20', platform: 'linux x64' };

function run(system: CreatePostgresRun['system'], processes: number, overrides: Partial<CreatePostgresRun>) {
  return {
    system,
    processes,
    concurrencyPerProcess: 16,
    completed: 2_000,
    errors: 0,
    perSecond: 1_000,
    p50Ms: 25,
    p99Ms: 60,
    cpuMsPerTransfer: 0.5,
    databaseCpuMsPerTransfer: 0.4,
    benchDatabaseCpuMsPerTransfer: 0.3,
    bankCpuMsPerTransfer: 0.2,
    machineBusy: 0.95,
    ...overrides,
  } satisfies CreatePostgresRun;
}

describe('the create section on Postgres', () => {
  it("counts a run's CPU per transfer as its processes' and its database's backends', and the cores it took with the bank's side", () => {
    const four = run('giro', 4, { perSecond: 2_000 });
    expect(systemCpu(four)).toBeCloseTo(0.8);
    // 2 000/s × (0.5 + 0.3 + 0.2) ms = 2 000 ms of CPU per second: both cores.
    expect(coresShare(four, 2)).toBeCloseTo(1);
  });

  it('gives the CPU per transfer against the raw client’s and the cores taken beside the rate goals', () => {
    const runs = [
      run('raw-pg', 1, { perSecond: 1_500, cpuMsPerTransfer: 0.3, benchDatabaseCpuMsPerTransfer: 0.34 }),
      run('giro', 1, { perSecond: 1_000 }),
      run('giro', 4, { perSecond: 1_900 }),
    ];
    const goals = replicasGoals({ machine, create: { mode: 'standard', date: '2026-11-29T15:00:00Z', runs } });
    expect(goals.map(({ goal, measured, met }) => [goal, measured, met])).toEqual([
      ['create on Postgres, 4 processes ÷ 1 (c=16 each)', '1.90×', false],
      ['create on Postgres, giro ÷ raw pg + undici (c=16)', '0.67×', false],
      ['or, the cores the limit: CPU per transfer (processes + backends), giro ÷ raw (c=16)', '1.25×', true],
      ["or, the cores the limit: the 2 cores the 4 processes' work took (c=16 each)", '95 %', true],
    ]);
  });

  it('leaves the cores taken unmeasured for results written before the bank’s CPU was', () => {
    const four = run('giro', 4, { bankCpuMsPerTransfer: undefined });
    const goals = replicasGoals({
      machine,
      create: { mode: 'standard', date: '2026-11-29T15:00:00Z', runs: [four] },
    });
    expect(goals).toEqual([expect.objectContaining({ measured: '—', met: null })]);
  });
});
