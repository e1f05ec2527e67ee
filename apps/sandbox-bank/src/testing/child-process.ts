import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The swc build of this app (`pnpm build`), which child-process tests run. */
export const DIST_DIR = join(__dirname, '..', '..', 'dist');

export function distScript(relativePath: string): string {
  const script = join(DIST_DIR, relativePath);
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`pnpm build\` before this test`);
  return script;
}

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startNode(
  script: string,
  options: { cwd: string; env: Record<string, string>; args?: string[] },
): RunningProcess {
  const child = spawn(process.execPath, [script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit };
}

/** Resolves with the first JSON line of stdout that has `event`, or rejects when the process exits first. */
export function waitForEvent(
  running: RunningProcess,
  event: string,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} within ${timeoutMs} ms:\n${running.output()}`)),
      timeoutMs,
    );
    const check = () => {
      // Whole lines only: a chunk may end inside one.
      for (const line of running.output().split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed.event === event) {
          clearTimeout(timer);
          running.child.stdout?.off('data', check);
          resolve(parsed);
          return;
        }
      }
    };
    running.child.stdout?.on('data', check);
    running.exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`the process exited before ${event}:\n${running.output()}`));
    });
  });
}
