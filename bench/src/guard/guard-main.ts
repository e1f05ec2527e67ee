import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext } from '../context';
import { runCreateBenchmarks } from '../create/run-create';
import { type MachineInfo, machineInfo } from '../machine';
import { planFromArgs } from '../options';
import { progressLog } from '../progress-log';
import { summarizeCreate, summarizeSweep } from '../report/results';
import { writeResultsJson } from '../report/write-results';
import { startSandboxProcess } from '../sandbox/sandbox-process';
import { runSweepBenchmarks } from '../sweep/run-sweep';
import { checkFloors, failureMessages, renderVerdicts } from './check-floors';
import type { GuardResults } from './guard-floors';

/** The guard's own Postgres database, so that it never drops one a `pnpm bench` running at the same time uses. */
const GUARD_DATABASE = 'giro_bench_guard';

const USAGE = 'usage: pnpm bench:guard [--check <results file>]';

/**
 * `pnpm bench:guard`: `pnpm bench --quick`'s create and sweep sections (Postgres required), their figures written
 * to bench/results/guard.json, then each ratio of guard-floors.ts checked against its floor: a table on stdout,
 * and an exit code of 1 with one line per failed figure on stderr. `--check <file>` checks a results file
 * written before (guard.json, or latest.json of any `pnpm bench`) without measuring. CI runs it on one Node.
 */
async function main(args: string[]): Promise<void> {
  const checkOnly = args.length === 2 && args[0] === '--check';
  if (args.length > 0 && !checkOnly) {
    console.error(`unknown argument ${args.join(' ')}\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  const results = checkOnly ? (JSON.parse(readFileSync(args[1], 'utf8')) as MeasuredResults) : await measure();
  const verdicts = checkFloors(results);
  console.log(renderVerdicts(verdicts));
  const failures = failureMessages(verdicts);
  if (failures.length > 0) {
    console.error(`bench guard: ${failures.length} figure(s) below the floor\n${failures.join('\n')}`);
    const { loadAtStart, machine } = results;
    if (loadAtStart !== undefined && machine !== undefined && loadAtStart > machine.cores) {
      // Not an excuse (the exit code stays 1): a hint for whoever reads the failure.
      console.error(
        `the machine was busy when the guard started (load average ${loadAtStart.toFixed(1)} on ${machine.cores} cores): ` +
          "each ratio's two rates are measured one after the other, so other work lowers some more than others; " +
          'the floors are set for a machine that runs the guard alone',
      );
    }
    process.exitCode = 1;
  }
}

/** What the guard writes: the create and sweep sections' figures, and how loaded the machine was at the start. */
type MeasuredResults = GuardResults & { machine?: MachineInfo; loadAtStart?: number };

async function measure(): Promise<MeasuredResults> {
  const plan = planFromArgs(['--quick']);
  const machine = machineInfo();
  const [loadAtStart] = loadavg();
  const started = performance.now();
  const log = progressLog(started);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-guard-'));
  log(
    `guard: the quick create and sweep sections on ${machine.cpuModel} (${machine.cores} cores, load average ${loadAtStart.toFixed(1)}), Node ${machine.node}`,
  );
  const sandbox = await startSandboxProcess(workDir, plan.hmac);
  try {
    const context: BenchContext = { plan, sandbox, workDir, profileDir: undefined, profiled: [], log };
    const create = await runCreateBenchmarks(context);
    const sweep = await runSweepBenchmarks(context, GUARD_DATABASE);
    const results = {
      mode: plan.mode,
      machine,
      loadAtStart,
      durationSeconds: Math.round((performance.now() - started) / 1000),
      create: summarizeCreate(create),
      sweep: summarizeSweep(sweep, plan.sweep.timeLimitMs, {
        inFlight: plan.sweep.inFlight,
        latencyMs: plan.sweep.postgresLatencyMs,
      }),
    };
    log(`guard: measured in ${results.durationSeconds} s, figures in ${writeResultsJson('guard', results)}`);
    return results;
  } finally {
    await sandbox.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
