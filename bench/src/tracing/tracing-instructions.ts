import 'reflect-metadata';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BankSettings } from '../bank/bank-settings';
import { giroCreate } from '../create/giro-create';
import { closedLoop } from '../load';
import { machineInfo } from '../machine';
import { startReadyProcess } from '../ready-process';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { startSandboxProcess } from '../sandbox/sandbox-process';
import { freshOriginIdRange, SIDE_BY_SIDE_ID_RANGE } from '../workload/transfer-request';
import { startWorkerTracing } from './worker-tracing';

/**
 * `node bench/dist/tracing/tracing-instructions.js [--transfers N] [--warmup N] [--repeats N] [--protocol P] [--together] [--out DIR]`:
 * what tracing costs a created transfer in instructions (valgrind's callgrind), which whatever else the machine
 * runs does not change the way it changes CPU time. For each side, off and on in turn, `--repeats` times: a child
 * process under callgrind runs `pnpm bench`'s giro create path (TransferService.requestTransfer on a fresh SQLite
 * file, 16 at a time) against the sandbox in a process of its own, `--warmup` transfers uncounted, then
 * `--transfers` counted, their spans exported (traced: the reconciler's `startTracing`, exporting over OTLP/HTTP
 * to the tracing bench's receiver, also a process of its own) before counting stops. The batch processor's
 * timer is pushed out of the run, so that batches are exported full as at full speed, not by the clock of a
 * process slowed down many times. Prints a markdown table; every instruction of the child's threads is counted
 * (V8's compiler and collector included). `--together` runs a repeat's two children at the same time: callgrind's
 * counts do not depend on what else runs, and a busy machine gives two processes more of its time than one.
 * `--out` keeps callgrind's files there (per function: `callgrind_annotate`); by default they go with the run.
 */

const CONCURRENCY = 16;
const MAX_CONNECTIONS = 64;
/** The batch processor exports when a batch is full or its timer fires; under callgrind only the first. */
const BSP_SCHEDULE_DELAY_MS = '3600000';

interface ChildPlan {
  traced: boolean;
  bank: BankSettings;
  databaseFile: string;
  warmup: number;
  transfers: number;
  otelEnv: Record<string, string>;
  /** Where its originIds start, when it runs beside another child (giro's own floor otherwise). */
  firstOriginId?: number;
}

function argument(args: string[], name: string, fallback: string): string {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
}

function positive(args: string[], name: string, fallback: number): number {
  const value = Number(argument(args, name, String(fallback)));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} takes a whole number ≥ 1`);
  return value;
}

/**
 * Turns callgrind's instrumentation on or off in this process (it runs under valgrind with vgdb): off, nothing is
 * counted and the process runs several times faster, so start-up and warm-up cost little of the run's time.
 */
async function collect(on: boolean): Promise<void> {
  await promisify(execFile)('callgrind_control', ['--instr', on ? 'on' : 'off', String(process.pid)]);
}

async function child(plan: ChildPlan): Promise<void> {
  const tracing = plan.traced ? await startWorkerTracing(plan.otelEnv) : undefined;
  const system = await giroCreate({
    system: 'giro',
    bank: plan.bank,
    databaseFile: plan.databaseFile,
    concurrency: CONCURRENCY,
    warmup: plan.warmup,
    transfers: plan.transfers,
    firstOriginId: plan.firstOriginId ?? 0,
    ...(plan.firstOriginId !== undefined && { giroFromFirstOriginId: true }),
    maxConnections: MAX_CONNECTIONS,
  });
  const warmup = await closedLoop(CONCURRENCY, plan.warmup, (index) => system.transfer(index));
  await tracing?.flush();
  await collect(true);
  const load = await closedLoop(CONCURRENCY, plan.transfers, (index) => system.transfer(plan.warmup + index));
  await tracing?.flush();
  await collect(false);
  await system.close();
  await tracing?.stop();
  // A few calls may end "outcome unknown" when the sandbox closes a keep-alive connection the slowed-down client
  // reuses: said, and counted in the table, rather than losing a run of many minutes.
  const errors = warmup.errors + load.errors;
  if (errors > plan.transfers / 100)
    throw new Error(`${errors} transfers failed, the first: ${warmup.firstError ?? load.firstError}`);
  process.stderr.write(`${JSON.stringify({ countedErrors: load.errors })}\n`);
}

/** Instructions counted in one child run, and its counted transfers that failed. */
function instructionsOf(plan: ChildPlan, outFile: string): Promise<{ instructions: number; errors: number }> {
  const run = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${outFile}`,
      '--instr-atstart=no',
      process.execPath,
      // V8's compiler and collector on the main thread: the same work, counted in the order it is done.
      '--single-threaded',
      __filename,
      '--child',
    ],
    { stdio: ['pipe', 'inherit', 'pipe'] },
  );
  run.stdin.end(JSON.stringify(plan));
  let stderr = '';
  run.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    run.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`callgrind's child failed (${plan.traced ? 'on' : 'off'}): ${stderr}`));
      // `totals`, the sum of the costs listed (with instrumentation switched on mid-run `summary` may say 0).
      const totals = /^totals: (\d+)/m.exec(readFileSync(outFile, 'utf8'));
      const errors = /\{"countedErrors":(\d+)\}/.exec(stderr);
      if (totals === null || errors === null || Number(totals[1]) === 0)
        return reject(new Error(`no instructions counted in ${outFile}: ${stderr}`));
      resolve({ instructions: Number(totals[1]), errors: Number(errors[1]) });
    });
  });
}

async function main(args: string[]): Promise<void> {
  const transfers = positive(args, '--transfers', 500);
  const warmup = positive(args, '--warmup', 1_500);
  const repeats = positive(args, '--repeats', 2);
  const protocol = argument(args, '--protocol', 'http/protobuf');
  const together = args.includes('--together');
  const outDir = args.includes('--out') ? argument(args, '--out', '') : undefined;
  if (outDir !== undefined) mkdirSync(outDir, { recursive: true });
  const machine = machineInfo();
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-tracing-instructions-'));
  const receiver = await startReadyProcess(join(__dirname, 'otlp-receiver-process.js'), {
    cwd: workDir,
    env: {},
    readyEvent: 'otlp-receiver-ready',
  });
  const sandbox = await startSandboxProcess(workDir);
  const otelEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: String(receiver.ready.url),
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: 'giro-bench',
    OTEL_BSP_SCHEDULE_DELAY: BSP_SCHEDULE_DELAY_MS,
  };
  const counts: Record<'off' | 'on', number[]> = { off: [], on: [] };
  let errors = 0;
  try {
    for (let repeat = 0; repeat < repeats; repeat++) {
      const order = repeat % 2 === 0 ? [false, true] : [true, false];
      const firstOriginIds = freshOriginIdRange();
      const measure = async (traced: boolean) => {
        const side = traced ? 'on' : 'off';
        const plan: ChildPlan = {
          traced,
          bank: sandbox.bank,
          databaseFile: join(workDir, `create-${repeat}-${side}.sqlite`),
          // Side by side, each child allocates from a range of its own (the one sandbox would see repeats).
          ...(together && { firstOriginId: firstOriginIds + (traced ? SIDE_BY_SIDE_ID_RANGE : 0) }),
          warmup,
          transfers,
          otelEnv,
        };
        const run = await instructionsOf(plan, join(outDir ?? workDir, `callgrind-${repeat}-${side}.out`));
        errors += run.errors;
        counts[side].push(run.instructions / transfers);
        process.stderr.write(
          `[tracing-instructions] ${side} ${repeat + 1}: ${formatNumber(run.instructions / transfers)} instructions per transfer\n`,
        );
      };
      if (together) await Promise.all(order.map(measure));
      else for (const traced of order) await measure(traced);
    }
  } finally {
    await sandbox.stop();
    await receiver.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  console.log(
    `Instructions per created transfer (callgrind, ${machine.cpuModel}, Node ${machine.node}; ${warmup} warm-up, ${transfers} counted at c=${CONCURRENCY}, ${protocol}):\n`,
  );
  console.log(
    markdownTable(
      ['runs off + on', 'off', 'on', 'on − off', 'overhead', 'counted transfers failed'],
      [
        [
          `${repeats} + ${repeats}`,
          counts.off.map((count) => formatNumber(count)).join(', '),
          counts.on.map((count) => formatNumber(count)).join(', '),
          formatNumber(mean(counts.on) - mean(counts.off)),
          `${formatNumber((mean(counts.on) / mean(counts.off) - 1) * 100, 1)} %`,
          String(errors),
        ],
      ],
      ['r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
}

if (process.argv.includes('--child')) {
  const input: Buffer[] = [];
  process.stdin.on('data', (chunk: Buffer) => input.push(chunk));
  process.stdin.on('end', () => {
    child(JSON.parse(Buffer.concat(input).toString('utf8')) as ChildPlan).catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
  });
} else {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
