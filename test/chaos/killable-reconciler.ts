import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// One reconciler replica of a chaos run: a child process on a fixed port that a supervisor SIGKILLs and
// starts again. Every incarnation appends its stdout and stderr to the same log file, so the whole run's
// output can be searched afterwards (for secrets) and shown when something fails.

const MAIN = join(__dirname, '..', '..', 'apps', 'reconciler', 'dist', 'main.js');
/** The ready line of the replica at `url`: the log is shared, another replica's ready line must not count. */
const readyLine = (url: string) => JSON.stringify({ event: 'reconciler-ready', url });
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const START_ATTEMPTS = 5;

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export class KillableReconciler {
  readonly url: string;
  kills = 0;
  starts = 0;
  /** Incarnations that exited before they were ready (started again). */
  failedStarts = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<Exit> | undefined;

  constructor(
    readonly name: string,
    private readonly options: {
      cwd: string;
      env: Record<string, string>;
      port: number;
      logFile: string;
      /** Node options before the entry point (a test hook to --require). */
      nodeArgs?: string[];
    },
  ) {
    this.url = `http://127.0.0.1:${options.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Starts an incarnation and waits for its ready line (bounded). An incarnation that exits before it is ready
   * (its database connection terminated during its migrations, by the Postgres run's faults) is started again, as an
   * orchestrator would, at most START_ATTEMPTS times; each such start is counted.
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (error) {
        if (this.running || attempt >= START_ATTEMPTS) throw error;
        this.failedStarts += 1;
      }
    }
  }

  private async startOnce(): Promise<void> {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`pnpm build\` before this test`);
    const { cwd, env, port, logFile, nodeArgs = [] } = this.options;
    const log = openSync(logFile, 'a');
    const offset = statSync(logFile).size;
    try {
      const child = spawn(process.execPath, [...nodeArgs, MAIN], {
        cwd,
        env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
        stdio: ['ignore', log, log],
      });
      this.child = child;
      this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    } finally {
      closeSync(log);
    }
    this.starts += 1;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!readFrom(logFile, offset).includes(readyLine(this.url))) {
      if (!this.running) throw new Error(`${this.name} exited before it was ready:\n${readFrom(logFile, offset)}`);
      if (Date.now() > deadline) throw new Error(`${this.name} not ready within ${START_TIMEOUT_MS} ms`);
      await sleep(50);
    }
  }

  /** SIGKILL: no shutdown hook runs, leases stay held until they expire. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGKILL');
    await this.exited;
    this.kills += 1;
  }

  /** SIGTERM and the exit status; SIGKILL when it does not exit in time. */
  async stop(): Promise<Exit> {
    if (!this.running) return (await this.exited) ?? { code: null, signal: null };
    this.child?.kill('SIGTERM');
    const exit = await Promise.race([this.exited, sleep(STOP_TIMEOUT_MS, undefined, { ref: false })]);
    if (exit) return exit;
    this.child?.kill('SIGKILL');
    await this.exited;
    throw new Error(`${this.name} did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM (killed)`);
  }

  /** For afterAll: whatever happened, no child outlives the test. */
  async killIfRunning(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGKILL');
    await this.exited;
  }
}

/** The text of `file` from byte `offset` on. */
export function readFrom(file: string, offset: number): string {
  const size = statSync(file).size;
  if (size <= offset) return '';
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}
