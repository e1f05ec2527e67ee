import { join } from 'node:path';
import type { BenchContext } from '../context';
import { runWorkersTogether } from '../workers/run-together';
import { freshOriginIdRange } from '../workload/transfer-request';
import type { CreateResult, CreateSystem, CreateTask } from './create-task';
import { awaitProcessedOnce } from './processed-once';

export interface CreateRun extends CreateResult {
  system: CreateSystem;
  concurrency: number;
  /** Peak RSS of the worker process. */
  peakRssMiB: number;
  /** CPU time the sandbox bank spent per transfer (warm-up included). */
  sandboxCpuMsPerTransfer: number | undefined;
  /** How busy the machine's CPU was during the run (0 … 1, all cores). */
  machineBusy: number | undefined;
}

const SYSTEMS: CreateSystem[] = ['limit', 'giro', 'peer'];
/** Keep-alive connections (and giro's in-flight budget) for every system: enough for the highest concurrency. */
const MAX_CONNECTIONS = 64;

/** The create path of each system at each concurrency, one fresh worker process and SQLite file per run. */
export async function runCreateBenchmarks(context: BenchContext): Promise<CreateRun[]> {
  const { plan, sandbox } = context;
  const runs: CreateRun[] = [];
  for (const concurrency of plan.create.concurrencies) {
    for (const system of SYSTEMS) {
      await sandbox.control.reset();
      const task: CreateTask = {
        system,
        bank: sandbox.bank,
        databaseFile: join(context.workDir, `create-${system}-${concurrency}.sqlite`),
        concurrency,
        warmup: plan.create.warmup,
        transfers: plan.create.transfers[concurrency],
        firstOriginId: freshOriginIdRange(),
        maxConnections: MAX_CONNECTIONS,
      };
      const { outcomes, sandboxCpuMs, machineBusy } = await runWorkersTogether<CreateTask, CreateResult>(
        context,
        `create ${system} c=${concurrency}`,
        'create/create-worker.js',
        [task],
      );
      const [{ result, usage }] = outcomes;
      const run: CreateRun = {
        system,
        concurrency,
        ...result,
        peakRssMiB: usage.peakRssMiB,
        sandboxCpuMsPerTransfer: sandboxCpuMs === undefined ? undefined : sandboxCpuMs / (task.warmup + task.transfers),
        machineBusy,
      };
      await awaitProcessedOnce(() => sandbox.control.counters(), task.warmup + task.transfers, {
        unanswered: result.errors,
      });
      context.log(
        `create ${system} c=${concurrency}: ${run.perSecond.toFixed(0)}/s p50 ${run.p50Ms.toFixed(1)} ms p99 ${run.p99Ms.toFixed(1)} ms${run.errors ? ` (${run.errors} errors: ${run.firstError})` : ''}`,
      );
      runs.push(run);
    }
  }
  return runs;
}
