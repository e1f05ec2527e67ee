import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runConsoleSpeedBench } from './console-speed/console-speed-main';
import type { BenchContext } from './context';
import { runCreateBenchmarks } from './create/run-create';
import { runDisciplineBenchmark } from './discipline/run-discipline';
import { machineInfo } from './machine';
import { planFromArgs, UsageError } from './options';
import { progressLog } from './progress-log';
import { runReplicasBench } from './replicas/replicas-main';
import { summarizeProfiles } from './report/profile-summary';
import { renderReport } from './report/render-report';
import { assembleResults } from './report/results';
import { recordInBenchmarksDoc, resultsFile, writeResultsJson } from './report/write-results';
import { startSandboxProcess } from './sandbox/sandbox-process';
import { runSearchBench } from './search/search-main';
import { runSweepBenchmarks } from './sweep/run-sweep';
import { runWebhookDeliveryBench } from './webhooks/webhooks-main';

/**
 * `pnpm bench [--quick | --full] [--profile] [--only create | sweep | postgres-sweep]`: giro against the physical limit and a naive peer (issue 7), then
 * webhook delivery (issue 18; `--quick` there too, the standard run otherwise), then replicas on Postgres (issue 19:
 * the shared bank budget, the create path with 1 and 4 processes, the sweep with a long history), then the search
 * API on a long history (issue 21: 1 M movements on SQLite, 10 M on Postgres). Prints the reports (markdown) on
 * stdout, progress on stderr; writes bench/results/latest.json and bench/results/webhooks.json and the reports into
 * BENCHMARKS.md. Every figure comes from this run.
 */
async function main(args: string[]): Promise<void> {
  const plan = planFromArgs(args);
  const machine = machineInfo();
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-'));
  const profileDir = plan.profile ? join(resultsFile('latest'), '..', 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const log = progressLog(started);
  log(`${plan.mode} run on ${machine.cpuModel} (${machine.cores} cores), Node ${machine.node}`);
  const sandbox = await startSandboxProcess(workDir, plan.hmac);
  try {
    const context: BenchContext = { plan, sandbox, workDir, profileDir, profiled: [], log };
    if (plan.only !== undefined) {
      // One section, for a quick measure of a change: its figures (and profiles) on stdout, no report written.
      const figures = plan.only === 'create' ? await runCreateBenchmarks(context) : await runSweepBenchmarks(context);
      console.log(JSON.stringify(figures, null, 2));
      if (profileDir) console.log(JSON.stringify(summarizeProfiles(profileDir, context.profiled), null, 2));
      return;
    }
    const create = await runCreateBenchmarks(context);
    const sweep = await runSweepBenchmarks(context);
    const discipline = await runDisciplineBenchmark(context);
    const results = assembleResults({
      mode: plan.mode,
      machine,
      durationSeconds: Math.round((performance.now() - started) / 1000),
      sweepTimeLimitMs: plan.sweep.timeLimitMs,
      postgresPlan: { inFlight: plan.sweep.inFlight, latencyMs: plan.sweep.postgresLatencyMs },
      create,
      sweep,
      discipline,
    });
    const profiles = profileDir ? summarizeProfiles(profileDir, context.profiled) : [];
    const report = renderReport(results, profiles);
    const file = writeResultsJson('latest', results);
    recordInBenchmarksDoc('latest', report);
    console.log(report);
    log(`results in ${file} and BENCHMARKS.md${profileDir ? `; CPU profiles in ${profileDir}` : ''}`);
  } finally {
    await sandbox.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  if (plan.only !== undefined) return;
  await runWebhookDeliveryBench(plan.mode === 'quick' ? ['--quick'] : []);
  await runReplicasBench(plan.mode === 'standard' ? [] : [`--${plan.mode}`]);
  await runSearchBench(plan.mode === 'standard' ? [] : [`--${plan.mode}`]);
  await runConsoleSpeedBench(plan.mode === 'quick' ? ['--quick'] : []);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exitCode = 1;
});
