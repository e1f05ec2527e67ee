import { join } from 'node:path';
import type { BenchPlan } from './options';
import type { SandboxProcess } from './sandbox/sandbox-process';
import { startWorker, type WorkerHandle, type WorkerOptions } from './workers/worker-protocol';

/** What every benchmark of a run shares. */
export interface BenchContext {
  plan: BenchPlan;
  sandbox: SandboxProcess;
  /** A temporary folder for databases and certificates, removed at the end. */
  workDir: string;
  /** Where CPU profiles go (`--profile`). */
  profileDir: string | undefined;
  /** The worker processes of each run, by the run's label, when profiling (to find their profiles). */
  profiled: { label: string; pids: number[] }[];
  /** A progress line (stderr: stdout carries the report). */
  log(message: string): void;
}

/** Starts one of the compiled worker scripts (relative to this folder, e.g. `create/create-worker.js`). */
export function startBenchWorker<Task, Result>(
  context: BenchContext,
  script: string,
  task: Task,
): WorkerHandle<Result> {
  const options: WorkerOptions = context.profileDir ? { profileDir: context.profileDir } : {};
  return startWorker(join(__dirname, script), task, options);
}
