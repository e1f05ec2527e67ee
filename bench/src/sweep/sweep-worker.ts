import 'reflect-metadata';
import { serveWorker } from '../workers/worker-protocol';
import { prepareGiroSweep } from './giro-sweep';
import { prepareLimitSweep } from './limit-sweep';
import type { SweepResult, SweepTask } from './sweep-task';

serveWorker<SweepTask, SweepResult>((task) =>
  task.system === 'giro' ? prepareGiroSweep(task) : prepareLimitSweep(task),
);
