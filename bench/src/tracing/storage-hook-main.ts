import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { giroCreate } from '../create/giro-create';
import { closedLoop } from '../load';
import { machineInfo } from '../machine';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { startSandboxProcess } from '../sandbox/sandbox-process';

/**
 * `node bench/dist/tracing/storage-hook-main.js [--concurrency N] [--blocks N] [--block N] [--warmup N]`: what one
 * enabled AsyncLocalStorage costs giro's create path, with no tracing SDK: the hook OpenTelemetry's context
 * manager brings, without its spans. giro's create run of `pnpm bench:tracing` (TransferService.requestTransfer on a
 * fresh SQLite file, against the sandbox in a process of its own) in this one process; after the warm-up, blocks of
 * transfers alternate with a storage enabled and with none (ABBA), each block's CPU time counted for its side, so a
 * busy machine weighs on both alike. On a Node that keeps the storage's values in async context frames (24) both
 * sides should be the same. Prints a markdown table on stdout; records nothing.
 */

const PATTERN = [true, false, false, true];

function option(args: string[], flag: string, fallback: number): number {
  const at = args.indexOf(flag);
  if (at === -1) return fallback;
  const value = Number(args[at + 1]);
  if (!(Number.isSafeInteger(value) && value > 0)) throw new Error(`${flag} takes a whole number above 0`);
  return value;
}

async function main(args: string[]): Promise<void> {
  const concurrency = option(args, '--concurrency', 64);
  const blocks = option(args, '--blocks', 32);
  const block = option(args, '--block', 200);
  const warmup = option(args, '--warmup', 3_000);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-storage-hook-'));
  const sandbox = await startSandboxProcess(workDir);
  try {
    const system = await giroCreate({
      system: 'giro',
      bank: sandbox.bank,
      databaseFile: join(workDir, 'storage-hook.sqlite'),
      concurrency,
      warmup,
      transfers: blocks * block,
      firstOriginId: 1,
      maxConnections: 64,
    });
    await closedLoop(Math.max(concurrency, 16), warmup, () => system.transfer(0));
    const storage = new AsyncLocalStorage<object>();
    const sides = { on: { cpuMs: 0, transfers: 0, errors: 0 }, off: { cpuMs: 0, transfers: 0, errors: 0 } };
    for (let index = 0; index < blocks; index++) {
      const enabled = PATTERN[index % PATTERN.length];
      // enterWith enables the storage's hook for the whole process; disable() removes it (no other storage is on).
      if (enabled) storage.enterWith({});
      else storage.disable();
      const started = process.cpuUsage();
      const load = await closedLoop(concurrency, block, () => system.transfer(0));
      const cpu = process.cpuUsage(started);
      const side = sides[enabled ? 'on' : 'off'];
      side.cpuMs += (cpu.user + cpu.system) / 1000;
      side.transfers += load.completed;
      side.errors += load.errors;
    }
    storage.disable();
    await system.close();
    const perTransfer = (side: { cpuMs: number; transfers: number }) => side.cpuMs / side.transfers;
    const machine = machineInfo();
    process.stdout.write(
      `One AsyncLocalStorage enabled or none, giro's create path in one process: ${machine.cpuModel}, Node ${machine.node}, c=${concurrency}, ${blocks} blocks of ${block} after ${warmup} warm-up transfers.\n\n${markdownTable(
        ['storage', 'transfers', 'errors', 'CPU ms/transfer'],
        [
          ['none', String(sides.off.transfers), String(sides.off.errors), formatNumber(perTransfer(sides.off), 3)],
          ['one enabled', String(sides.on.transfers), String(sides.on.errors), formatNumber(perTransfer(sides.on), 3)],
        ],
        ['l', 'r', 'r', 'r'],
      )}\n\nThe storage's hook: ${formatNumber((perTransfer(sides.on) / perTransfer(sides.off) - 1) * 100, 1)} %.\n`,
    );
  } finally {
    await sandbox.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
