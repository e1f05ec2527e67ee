import type { CreateRun } from '../create/run-create';
import type { SweepRun } from '../sweep/run-sweep';
import { markdownTable, formatNumber as n } from './markdown-table';
import type { ProfileSummary } from './profile-summary';
import type { BenchResults } from './results';

/** The whole report in markdown: machine and date, one table per benchmark, the goals (and profiles). */
export function renderReport(
  results: BenchResults,
  profiles: { label: string; summary: ProfileSummary }[] = [],
): string {
  const { machine } = results;
  return [
    `Run: \`pnpm bench${results.mode === 'standard' ? '' : ` --${results.mode}`}\`, ${machine.date.slice(0, 16).replace('T', ' ')} UTC, ${n(results.durationSeconds)} s.`,
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${n(machine.memoryGiB, 1)} GiB, Node ${machine.node}, ${machine.platform}.`,
    '',
    '#### Create path (transfers per second, end to end; SQLite, synchronous=FULL)',
    '',
    createTable(results.create.runs),
    '',
    '#### Sweep (bank queries per second; SQLite, and Postgres with the bank 20 ms away)',
    '',
    sweepTable(results),
    '',
    '#### Where the CPU goes (measured in the same runs)',
    '',
    cpuTable(results),
    '',
    '#### Polling discipline (the reconciler process, scaled intervals)',
    '',
    disciplineTable(results),
    '',
    '#### Goals (issue 7)',
    '',
    ...(results.mode === 'quick'
      ? [
          'A `--quick` run is indicative: short runs after a short warm-up, so V8 is still compiling for part of',
          'them. `pnpm bench` or `pnpm bench --full` measures the goals.',
          '',
        ]
      : []),
    markdownTable(
      ['goal', 'target', 'measured', 'met'],
      results.goals.map((goal) => [
        goal.goal,
        goal.target,
        goal.measured,
        goal.met === null ? 'not measured' : goal.met ? 'yes' : '**no**',
      ]),
    ),
    ...(profiles.length > 0
      ? ['', '#### Where each process spent its time (CPU profiles, `--profile`)', '', profileTable(profiles)]
      : []),
  ].join('\n');
}

/** The parts of at least 3 % of each profiled process's time. */
function profileTable(profiles: { label: string; summary: ProfileSummary }[]): string {
  return markdownTable(
    ['run', 'profiled', 'largest parts'],
    profiles.map(({ label, summary }) => [
      label,
      `${n(summary.totalMs / 1000, 1)} s`,
      summary.parts
        .filter((part) => part.share >= 0.03)
        .map((part) => `${part.part} ${n(part.share * 100)} %`)
        .join(', '),
    ]),
    ['l', 'r', 'l'],
  );
}

function createTable(runs: CreateRun[]): string {
  const concurrencies = [...new Set(runs.map((run) => run.concurrency))];
  const rows = concurrencies.map((concurrency) => {
    const of = (system: CreateRun['system']) =>
      runs.find((run) => run.concurrency === concurrency && run.system === system);
    const [limit, giro, peer] = [of('limit'), of('giro'), of('peer')];
    const latency = (run: CreateRun | undefined) => (run ? `${n(run.p50Ms, 1)} / ${n(run.p99Ms, 1)}` : '—');
    const rate = (run: CreateRun | undefined) => run?.perSecond ?? Number.NaN;
    return [
      String(concurrency),
      n(limit?.perSecond),
      n(giro?.perSecond),
      n(peer?.perSecond),
      latency(limit),
      latency(giro),
      latency(peer),
      n(rate(giro) / rate(limit), 2),
      n(rate(giro) / rate(peer), 2),
      // The most any system could be ahead of the peer here.
      n(rate(limit) / rate(peer), 2),
    ];
  });
  return markdownTable(
    [
      'concurrency',
      'limit /s',
      'giro /s',
      'naive peer /s',
      'limit p50 / p99 ms',
      'giro p50 / p99 ms',
      'peer p50 / p99 ms',
      'giro ÷ limit',
      'giro ÷ peer',
      'limit ÷ peer',
    ],
    rows,
    ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

function sweepTable(results: BenchResults): string {
  const { sqlite, postgres } = results.sweep;
  const rss = (run: SweepRun) =>
    run.peakRssMiB.map((value, index) => `${n(value)} (${n(run.peakHeapMiB[index])})`).join(' / ');
  const boxed = (run: SweepRun | undefined) => (run?.timeBoxed ? ' †' : '');
  const rows: string[][] = [];
  for (const backlog of [...new Set(sqlite.runs.map((run) => run.backlog))]) {
    const limit = sqlite.runs.find((run) => run.backlog === backlog && run.system === 'limit');
    const giro = sqlite.runs.find((run) => run.backlog === backlog && run.system === 'giro');
    rows.push([
      'SQLite',
      `${n(backlog)}${boxed(giro)}`,
      '1',
      n(limit?.perSecond),
      n(giro?.perSecond),
      n((giro?.perSecond ?? Number.NaN) / (limit?.perSecond ?? Number.NaN), 2),
      giro ? rss(giro) : '—',
    ]);
  }
  if ('runs' in postgres) {
    for (const run of postgres.runs) {
      rows.push([
        'Postgres, +20 ms',
        `${n(run.backlog)}${boxed(run)}`,
        String(run.processes),
        '—',
        n(run.perSecond),
        '—',
        rss(run),
      ]);
    }
  } else rows.push(['Postgres', '—', '—', '—', `skipped: ${postgres.skipped}`, '—', '—']);
  return markdownTable(
    [
      'database',
      'due movements',
      'processes',
      'limit /s',
      'giro /s',
      'giro ÷ limit',
      'giro peak RSS (V8 heap) MiB, each process',
    ],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

function disciplineTable(results: BenchResults): string {
  const d = results.discipline;
  return [
    `Rules ${d.rules.minIntervalMs} ms after CREATED / IN_PROGRESS, more than ${d.rules.delayedMinIntervalMs} ms after DELAYED; sweeps ${d.sweepIntervalMs} ms apart; ${d.movements} transfers (1 in 10 delayed, 1 in 10 failing).`,
    '',
    markdownTable(
      [
        'queries',
        'minimum',
        'queries ÷ minimum',
        'lag p50 / p99 ms',
        'lag p99 ÷ interval',
        'after DELAYED p50 / p99 ms',
        'early queries',
        'after final',
      ],
      [
        [
          n(d.queries),
          n(d.minimumQueries),
          n(d.queriesOverMinimum, 2),
          `${n(d.lagP50Ms)} / ${n(d.lagP99Ms)}`,
          n(d.lagP99OverInterval, 2),
          `${n(d.delayedLagP50Ms)} / ${n(d.delayedLagP99Ms)}`,
          String(d.earlyQueries),
          String(d.pollsAfterFinal),
        ],
      ],
      ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

function cpuTable(results: BenchResults): string {
  const rows: string[][] = [];
  const busy = (share: number | undefined) => (share === undefined ? '—' : `${n(share * 100)} %`);
  const c = results.create.ratiosAtConcurrency;
  for (const run of results.create.runs.filter((each) => each.concurrency === c)) {
    rows.push([
      `create, c=${c}`,
      run.system,
      n(run.perSecond),
      n(run.cpuMsPerTransfer, 2),
      n(run.sandboxCpuMsPerTransfer, 2),
      '—',
      busy(run.machineBusy),
    ]);
  }
  const { sqlite, postgres } = results.sweep;
  for (const run of sqlite.runs.filter((each) => each.backlog === sqlite.ratioAtBacklog)) {
    rows.push([
      `sweep, SQLite, ${n(run.backlog)} due`,
      run.system,
      n(run.perSecond),
      n(run.cpuMsPerQuery, 2),
      n(run.sandboxCpuMsPerQuery, 2),
      '—',
      busy(run.machineBusy),
    ]);
  }
  if ('runs' in postgres) {
    for (const run of postgres.runs) {
      rows.push([
        `sweep, Postgres, ${run.processes} process${run.processes > 1 ? 'es' : ''}`,
        run.system,
        n(run.perSecond),
        n(run.cpuMsPerQuery, 2),
        n(run.sandboxCpuMsPerQuery, 2),
        n(run.databaseCpuMsPerQuery, 2),
        busy(run.machineBusy),
      ]);
    }
  }
  const table = markdownTable(
    [
      'run',
      'system',
      'per second',
      'CPU ms per operation (its processes)',
      'sandbox CPU ms per operation',
      'Postgres CPU ms per operation',
      'machine CPU busy',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
  );
  const ceiling = cpuCeiling(results);
  return ceiling ? `${table}\n\n${ceiling}` : table;
}

/**
 * What four sweeping processes could ask of the bank (each `inFlight` queries per round trip) and how many
 * cores that takes at the CPU cost per query measured here: giro's with the sandbox and Postgres, the
 * limit's (SQLite, no server) with the sandbox.
 */
function cpuCeiling(results: BenchResults): string | undefined {
  const { sqlite, postgres, postgresPlan } = results.sweep;
  if (!('runs' in postgres) || !postgresPlan) return undefined;
  const one = postgres.runs.find((run) => run.processes === 1);
  const limit = sqlite.runs.find((run) => run.system === 'limit' && run.backlog === sqlite.ratioAtBacklog);
  if (!one || !limit) return undefined;
  const { inFlight, latencyMs } = postgresPlan;
  const rate = (4 * inFlight * 1000) / latencyMs;
  const cores = (...perQuery: (number | undefined)[]) =>
    n((rate * perQuery.reduce<number>((total, value) => total + (value ?? 0), 0)) / 1000, 1);
  const giro = cores(one.cpuMsPerQuery, one.sandboxCpuMsPerQuery, one.databaseCpuMsPerQuery);
  const bare = cores(limit.cpuMsPerQuery, limit.sandboxCpuMsPerQuery);
  return `Four processes with ${inFlight} queries in flight and a ${latencyMs} ms round trip could ask ${n(rate)} queries/s. At the CPU per query measured above that takes ${giro} cores for giro (with the sandbox and Postgres, as with one process) and ${bare} for the limit (with the sandbox; SQLite, no server); this machine has ${results.machine.cores}.`;
}
