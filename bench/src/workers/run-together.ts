import { performance } from 'node:perf_hooks';
import { type BenchContext, startBenchWorker } from '../context';
import { ProcessGroupCpu } from '../process-group-cpu';
import { busyShare, cpuTimeMs, machineCpuTicks } from '../process-stats';
import type { WorkerOutcome } from './worker-protocol';

export interface TogetherOutcome<Result> {
  outcomes: WorkerOutcome<Result>[];
  /** From the moment all were told to go until the last one reported. */
  wallMs: number;
  /** CPU time the sandbox bank spent meanwhile. */
  sandboxCpuMs: number | undefined;
  /** How busy the whole machine was meanwhile (0 … 1, all cores): near 1 means the run was CPU-bound. */
  machineBusy: number | undefined;
  /** CPU time of the processes named `options.alsoMeasure` meanwhile (the database server). */
  alsoMeasuredCpuMs: number | undefined;
  /** The part of it of the processes with `options.alsoMeasureWord` in their command line (one database's backends). */
  alsoMeasuredWordCpuMs: number | undefined;
}

/**
 * Starts one worker per task, waits until all are set up, starts them at once and waits for every result.
 * `label` names the run (for its CPU profiles); `alsoMeasure` names processes whose CPU time to measure too, and
 * `alsoMeasureWord` a word of the command line of those among them to measure apart (a Postgres database's name);
 * `beforeGo` runs once all are set up, before the measurement starts.
 */
export async function runWorkersTogether<Task, Result>(
  context: BenchContext,
  label: string,
  script: string,
  tasks: Task[],
  options: { alsoMeasure?: string; alsoMeasureWord?: string; beforeGo?: () => Promise<void> } = {},
): Promise<TogetherOutcome<Result>> {
  const workers = tasks.map((task) => startBenchWorker<Task, Result>(context, script, task));
  if (context.profileDir) context.profiled.push({ label, pids: workers.map((worker) => worker.pid) });
  await Promise.all(workers.map((worker) => worker.ready));
  await options.beforeGo?.();
  const sandboxCpuBefore = cpuTimeMs(context.sandbox.pid);
  const machineBefore = machineCpuTicks();
  const group = options.alsoMeasure === undefined ? undefined : new ProcessGroupCpu(options.alsoMeasure);
  const wordGroup =
    options.alsoMeasure === undefined || options.alsoMeasureWord === undefined
      ? undefined
      : new ProcessGroupCpu(options.alsoMeasure, undefined, options.alsoMeasureWord);
  group?.start();
  wordGroup?.start();
  const started = performance.now();
  for (const worker of workers) worker.go();
  const outcomes = await Promise.all(workers.map((worker) => worker.outcome));
  const wallMs = performance.now() - started;
  const alsoMeasuredCpuMs = group?.stop();
  const alsoMeasuredWordCpuMs = wordGroup?.stop();
  const sandboxCpuAfter = cpuTimeMs(context.sandbox.pid);
  return {
    outcomes,
    wallMs,
    machineBusy: busyShare(machineBefore, machineCpuTicks()),
    alsoMeasuredCpuMs,
    alsoMeasuredWordCpuMs,
    sandboxCpuMs:
      sandboxCpuBefore === undefined || sandboxCpuAfter === undefined ? undefined : sandboxCpuAfter - sandboxCpuBefore,
  };
}
