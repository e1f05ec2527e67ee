import { type ChildProcess, spawn } from 'node:child_process';

/** A node script run as a child process that printed its ready line. */
export interface ReadyProcess {
  child: ChildProcess;
  /** The ready line, parsed. */
  ready: Record<string, unknown>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Runs `script` (after `nodeArgs`, node's own flags) with exactly `env` (plus PATH) in `cwd` and waits for the JSON line of stdout whose `event`
 * is `readyEvent` (the convention of the sandbox and the reconciler). Its output is kept for the error message
 * if it never gets ready, and drained afterwards.
 */
export function startReadyProcess(
  script: string,
  options: { cwd: string; env: Record<string, string>; readyEvent: string; timeoutMs?: number; nodeArgs?: string[] },
): Promise<ReadyProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${script} did not get ready: ${why}\n${output.slice(-4000)}`));
    };
    const timer = setTimeout(() => fail(`no ${options.readyEvent} line within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null) => fail(`it exited with code ${code}`);
    child.once('exit', onExit);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (const line of output.split('\n')) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed.event !== options.readyEvent) continue;
        clearTimeout(timer);
        child.off('exit', onExit);
        // From now on its output is only drained, so a chatty process never blocks on a full pipe.
        child.stdout?.removeAllListeners('data');
        child.stderr?.removeAllListeners('data');
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ child, ready: parsed, stop });
        return;
      }
    });
  });
}
