import 'reflect-metadata';
import { closedLoop } from '../load';
import { ratePerSecond, summarizeLatencies } from '../stats';
import { pairedBlocks } from '../tracing/paired-blocks';
import { startWorkerTracing } from '../tracing/worker-tracing';
import { serveWorker } from '../workers/worker-protocol';
import type { CreateResult, CreateSystem, CreateSystemUnderTest, CreateTask } from './create-task';
import { giroCreate } from './giro-create';
import { limitCreate } from './limit-create';
import { peerCreate } from './peer-create';
import { rawPostgresCreate } from './raw-postgres-create';

const SYSTEMS: Record<CreateSystem, (task: CreateTask) => Promise<CreateSystemUnderTest>> = {
  giro: giroCreate,
  limit: limitCreate,
  peer: peerCreate,
  'raw-pg': rawPostgresCreate,
};

/**
 * The warm-up runs at least this many transfers at once, whatever the measured concurrency: V8 needs a
 * number of transfers, not a duration, to compile the path (giro's CPU per transfer at c=64 after 300, 1 500,
 * 3 000 and 6 000 warm-up transfers: 0.76, 0.42, 0.24–0.38 and 0.28–0.31 ms), and at concurrency 1 that many
 * would take the slower systems many seconds.
 */
const WARMUP_CONCURRENCY = 16;

serveWorker<CreateTask, CreateResult>(async (task) => {
  const tracing = task.otelEnv === undefined ? undefined : await startWorkerTracing(task.otelEnv);
  const system = await SYSTEMS[task.system](task);
  return async () => {
    const warmupConcurrency = Math.max(task.concurrency, WARMUP_CONCURRENCY);
    const warmup = await closedLoop(warmupConcurrency, task.warmup, (index) => system.transfer(index));
    // Traced, the measured transfers pay for exporting their own spans: the warm-up's are sent before, theirs
    // before the CPU is read.
    await tracing?.flush();
    const cpuAtStart = process.cpuUsage();
    const measured = { concurrency: task.concurrency, total: task.transfers, firstIndex: task.warmup };
    const paired =
      tracing && task.pairedBlock
        ? await pairedBlocks(tracing, { ...measured, block: task.pairedBlock }, (index) => system.transfer(index))
        : undefined;
    const load =
      paired?.load ??
      (await closedLoop(task.concurrency, task.transfers, (index) => system.transfer(task.warmup + index)));
    await tracing?.flush();
    const cpu = process.cpuUsage(cpuAtStart);
    await system.close();
    await tracing?.stop();
    const errors = warmup.errors + load.errors;
    const firstError = warmup.firstError ?? load.firstError;
    return {
      completed: load.completed,
      errors,
      ...(firstError && { firstError }),
      durationMs: load.durationMs,
      perSecond: ratePerSecond(load.completed, load.durationMs),
      ...summarizeLatencies(load.latenciesMs),
      cpuMsPerTransfer: (cpu.user + cpu.system) / 1000 / load.completed,
      ...(paired && {
        paired: {
          tracedCpuMsPerTransfer: paired.tracedCpuMsPerTransfer,
          suppressedCpuMsPerTransfer: paired.suppressedCpuMsPerTransfer,
        },
      }),
    };
  };
});
