import { fork } from 'node:child_process';
import { ownPeakRssMiB } from '../process-stats';

// A benchmark worker is a child process that sets itself up (its own Nest app, database and connections),
// says it is ready, runs when told to go, and reports its result with its own resource usage. Setting up
// and running are separate, so several workers can start measuring at the same moment.

export interface WorkerUsage {
  /** Peak resident set of the worker process (VmHWM), MiB. */
  peakRssMiB: number;
  /** The largest V8 heap (heapTotal) seen during the run, sampled every 250 ms, MiB: the JS part of the RSS. */
  peakHeapMiB: number;
  /** CPU time (user + system) the worker used during the measured run (set-up excluded), ms. */
  cpuMs: number;
}

export interface WorkerOutcome<Result> {
  result: Result;
  usage: WorkerUsage;
}

type ToWorker<Task> = { type: 'setup'; task: Task } | { type: 'go' };
type FromWorker<Result> =
  | { type: 'ready' }
  | { type: 'result'; outcome: WorkerOutcome<Result> }
  | { type: 'error'; message: string };

export interface WorkerHandle<Result> {
  pid: number;
  /** Resolves once the worker is set up. */
  ready: Promise<void>;
  /** Starts the measured work (after `ready`). */
  go(): void;
  outcome: Promise<WorkerOutcome<Result>>;
}

export interface WorkerOptions {
  /** Write a V8 CPU profile of the worker here (`--cpu-prof`). */
  profileDir?: string;
}

/** Forks `script` and hands it `task`. */
export function startWorker<Task, Result>(
  script: string,
  task: Task,
  options: WorkerOptions = {},
): WorkerHandle<Result> {
  const child = fork(script, [], {
    execArgv: options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = deferred<void>();
  const outcome = deferred<WorkerOutcome<Result>>();
  // Rejecting what already resolved changes nothing: a failure reaches whoever still waits.
  const fail = (error: Error) => {
    ready.reject(error);
    outcome.reject(error);
  };
  child.on('message', (message: FromWorker<Result>) => {
    if (message.type === 'ready') ready.resolve();
    else if (message.type === 'result') outcome.resolve(message.outcome);
    else fail(new Error(`${script}: ${message.message}`));
  });
  // 'close' comes after the IPC channel closed, so a result sent just before exiting has arrived by then.
  child.on('close', (code, signal) =>
    fail(new Error(`${script} exited (${signal ?? code}) before reporting a result`)),
  );
  child.send({ type: 'setup', task } satisfies ToWorker<Task>);
  return {
    pid: child.pid as number,
    ready: ready.promise,
    go: () => child.send({ type: 'go' } satisfies ToWorker<Task>),
    outcome: outcome.promise,
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // Whoever awaits only one of a worker's promises must not see the other's rejection as unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The worker's side: `prepare` sets up for `task` and returns the measured run, which must also release
 * what it used (connections, the Nest app), since the process exits right after reporting.
 */
export function serveWorker<Task, Result>(prepare: (task: Task) => Promise<() => Promise<Result>>): void {
  let run: (() => Promise<Result>) | undefined;
  const send = (message: FromWorker<Result>, then?: () => void) =>
    process.send?.(message, undefined, {}, () => then?.());
  const fail = (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    send({ type: 'error', message }, () => process.exit(1));
  };
  // The benchmark ended (or died) without us: nothing is left to report to.
  process.on('disconnect', () => process.exit(1));
  process.on('message', (message: ToWorker<Task>) => {
    if (message.type === 'setup') {
      prepare(message.task).then((prepared) => {
        run = prepared;
        send({ type: 'ready' });
      }, fail);
    } else if (message.type === 'go' && run) {
      const cpuAtStart = process.cpuUsage();
      let peakHeap = process.memoryUsage().heapTotal;
      const heapSampler = setInterval(() => {
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapTotal);
      }, 250);
      run().then((result) => {
        clearInterval(heapSampler);
        const { user, system } = process.cpuUsage(cpuAtStart);
        const usage = {
          peakRssMiB: ownPeakRssMiB(),
          peakHeapMiB: Math.round((peakHeap / 2 ** 20) * 10) / 10,
          cpuMs: (user + system) / 1000,
        };
        send({ type: 'result', outcome: { result, usage } }, () => process.exit(0));
      }, fail);
    }
  });
}
