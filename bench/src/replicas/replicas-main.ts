import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from '../context';
import { machineInfo } from '../machine';
import { planFromArgs } from '../options';
import { recordInBenchmarksDoc, resultsFile, writeResultsJson } from '../report/write-results';
import { startSandboxProcess } from '../sandbox/sandbox-process';
import { postgresReachable } from '../sweep/seed-postgres';
import { replicasPlanFromArgs } from './replicas-plan';
import { type ReplicasResults, renderReplicasReport, replicasGoals, type SectionResult } from './replicas-report';
import { runCreatePostgres } from './run-create-postgres';
import { runSharedBudget } from './run-shared-budget';
import { runSweepHistory } from './run-sweep-history';

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const RESULTS_FILE = resultsFile('replicas');

/**
 * Issue 19 on Postgres: one bank budget shared by 4 reconciler processes, the create path with 1 and 4 processes
 * against a raw pg + undici client, and the sweep with a long history of final movements. `pnpm bench` runs it
 * last (with its `--quick` or `--full`); alone: `node bench/dist/replicas/replicas-main.js [--quick | --full]
 * [--only budget,create,history]`. Prints the report, writes bench/results/replicas.json and puts the report in
 * BENCHMARKS.md between the `bench:replicas` markers.
 */
export async function runReplicasBench(args: string[]): Promise<void> {
  const plan = replicasPlanFromArgs(args);
  const machine = machineInfo();
  const started = Date.now();
  const log = (message: string) =>
    process.stderr.write(`[replicas ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  if (!(await postgresReachable(serverUrl))) {
    log('skipped: no Postgres server answered (set BENCH_POSTGRES_URL)');
    return;
  }
  log(
    `${plan.mode} run (${plan.sections.join(', ')}) on ${machine.cpuModel} (${machine.cores} cores), Node ${machine.node}`,
  );
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-replicas-'));
  const benchPlan = planFromArgs(plan.mode === 'standard' ? [] : [`--${plan.mode}`]);
  const sandbox = await startSandboxProcess(workDir, benchPlan.hmac);
  try {
    const context: BenchContext = { plan: benchPlan, sandbox, workDir, profileDir: undefined, profiled: [], log };
    const has = (section: string) => (plan.sections as string[]).includes(section);
    const budget = has('budget') ? await runSharedBudget(context, serverUrl, plan.budget) : undefined;
    const create = has('create') ? await runCreatePostgres(context, serverUrl, plan.create) : undefined;
    const history = has('history') ? await runSweepHistory(context, serverUrl, plan.history) : undefined;
    const ran = <Run>(runs: Run[] | undefined): SectionResult<Run> | undefined =>
      runs && { mode: plan.mode, date: machine.date, runs };
    // Sections left out by --only keep the figures of the run that measured them last.
    const previous = readPreviousResults();
    const { date: _date, ...machineOnly } = machine;
    const partial = {
      machine: machineOnly,
      ...pick('budget', ran(budget) ?? previous?.budget),
      ...pick('create', ran(create) ?? previous?.create),
      ...pick('history', ran(history) ?? previous?.history),
    };
    const results: ReplicasResults = { ...partial, goals: replicasGoals(partial) };
    const report = renderReplicasReport(results);
    writeResultsJson('replicas', results);
    recordInBenchmarksDoc('replicas', report);
    console.log(report);
    log(`results in ${RESULTS_FILE} and BENCHMARKS.md (${Math.round((Date.now() - started) / 1000)} s)`);
  } finally {
    await sandbox.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function readPreviousResults(): ReplicasResults | undefined {
  try {
    return JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as ReplicasResults;
  } catch {
    return undefined;
  }
}

/** `{ [key]: value }`, or nothing when there is no value. */
function pick<Key extends string, Value>(key: Key, value: Value | undefined): Partial<Record<Key, Value>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, Value>);
}

if (require.main === module) {
  runReplicasBench(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
