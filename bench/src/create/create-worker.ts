import 'reflect-metadata';
import { closedLoop } from '../load';
import { ratePerSecond, summarizeLatencies } from '../stats';
import { serveWorker } from '../workers/worker-protocol';
import type { CreateResult, CreateSystem, CreateSystemUnderTest, CreateTask } from './create-task';
import { giroCreate } from './giro-create';
import { limitCreate } from './limit-create';
import { peerCreate } from './peer-create';

const SYSTEMS: Record<CreateSystem, (task: CreateTask) => Promise<CreateSystemUnderTest>> = {
  giro: giroCreate,
  limit: limitCreate,
  peer: peerCreate,
};

serveWorker<CreateTask, CreateResult>(async (task) => {
  const system = await SYSTEMS[task.system](task);
  return async () => {
    const warmup = await closedLoop(task.concurrency, task.warmup, (index) => system.transfer(index));
    const cpuAtStart = process.cpuUsage();
    const load = await closedLoop(task.concurrency, task.transfers, (index) => system.transfer(task.warmup + index));
    const cpu = process.cpuUsage(cpuAtStart);
    await system.close();
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
    };
  };
});
