import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

export interface CommandResult {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  durationMs: number;
}

/**
 * Runs `command` to its end in `cwd`, with this process's whole environment plus `env`. npm and npx need it as
 * it is: the npm_config_* variables (CI points npm_config_nodedir at the running Node's headers, so that
 * better-sqlite3 builds for that Node), PATH, HOME and the npm cache. `signal` kills the command (the suite's
 * afterAll aborts whatever a timed-out hook left running). `lowPriority` runs it, and the compilers it starts,
 * at nice 10: the suites in Jest's other worker measure time, and minutes of C++ builds would starve them.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; signal?: AbortSignal; lowPriority?: boolean },
): Promise<CommandResult> {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    signal: options.signal,
    killSignal: 'SIGKILL',
  });
  if (options.lowPriority && child.pid !== undefined) setPriority(child.pid, 10);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    // An abort kills the child, whose 'close' then resolves.
    child.on('error', (error) => {
      if (error.name !== 'AbortError') reject(error);
    });
    child.on('close', (code) => resolve({ code, output, durationMs: Date.now() - started }));
  });
}
