import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TransferModuleOptions } from '@giro/transfer-module';

// The crash-window tests run giro in a child process (plain JS on the compiled module) and kill it.

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'transfer-child.js');
const MODULE = join(ROOT, 'packages', 'transfer-module');

/** Fails clearly when the compiled module is missing or older than its sources (`pnpm build` first). */
export function assertFreshBuild(): void {
  let builtAt: number;
  try {
    builtAt = statSync(join(MODULE, 'dist', 'index.js')).mtimeMs;
  } catch {
    throw new Error('packages/transfer-module/dist is missing: run `pnpm build` first (pnpm test does)');
  }
  const newest = newestSource(join(MODULE, 'src'));
  if (newest.mtimeMs > builtAt) {
    throw new Error(`packages/transfer-module/dist is older than ${newest.path}: run \`pnpm build\` first`);
  }
}

function newestSource(dir: string): { path: string; mtimeMs: number } {
  let newest = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(path)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
        ? { path, mtimeMs: statSync(path).mtimeMs }
        : newest;
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

export interface TransferChild {
  process: ChildProcess;
  /** The child's report lines (JSON) so far. */
  events: { event: string; [key: string]: unknown }[];
  stderr(): string;
  /** Resolves when it exits, with its code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the child; it requests `request` with `options` (JSON-serialisable: no clock, no functions). */
export function startTransferChild(options: TransferModuleOptions, request: unknown): TransferChild {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, GIRO_CHILD_CONFIG: JSON.stringify({ options, request }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: TransferChild['events'] = [];
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line));
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { process: child, events, stderr: () => err, exited };
}
