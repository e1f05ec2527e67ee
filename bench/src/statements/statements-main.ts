import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { businessDayOf } from '@giro/transfer-module';
import { ProcessGroupCpu } from '../process-group-cpu';
import { cpuTimeMs, peakRssMiB } from '../process-stats';
import { startReadyProcess } from '../ready-process';
import { startSandboxProcess } from '../sandbox/sandbox-process';
import { createBenchDatabase, dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import { SOURCE_ACCOUNTS_ENV, transferRequest } from '../workload/transfer-request';
import { importInProcess } from './statements-in-process';

/**
 * `pnpm bench:statements [--lines N] [--transfers M] [--via in-process|http] [--events] [--cpu-prof DIR]`: a bank
 * statement of N lines (1 000 000 by default) imported on Postgres, never whole in memory: `in-process` (the
 * default) spools it and reads it with the admin API's reader into the store in this process (its CPU, the
 * database's backends' CPU, its peak resident set), with `--events` writing the webhook events as the reconciler's
 * store does; `http` sends it to `POST /admin/statements` of the reconciler as deployed (its own process; an upload,
 * server-timeouts.ts), with `--cpu-prof` writing the reconciler's CPU profile there. M transfers (1 000 by default)
 * are created first through
 * the API and their lines put first in the statement (matched); the other lines are debits no transfer explains.
 * Reports the import's seconds, the reconciler's peak resident set before and after (VmHWM), its CPU time and the
 * database's backends' (both paths), then
 * the same file again (answered as the same import). Goal: 60 s on Postgres, memory flat. Prints a markdown
 * table on stdout, progress on stderr.
 */

const GOAL_SECONDS = 60;
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DATABASE = 'giro_bench_statements';
const ACCOUNT = SOURCE_ACCOUNTS_ENV.split(':')[0];

interface Plan {
  lines: number;
  transfers: number;
  via: 'in-process' | 'http';
  /** In process: the store writes the webhook events as the reconciler's does. */
  events: boolean;
  /** Where the reconciler writes its CPU profile (node --cpu-prof), when asked. */
  cpuProfileDir: string | undefined;
  postgresUrl: string;
}

function planFromArgs(args: string[]): Plan {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const lines = Number(value('--lines') ?? 1_000_000);
  const transfers = Number(value('--transfers') ?? 1_000);
  if (!Number.isSafeInteger(lines) || lines < 1_000) throw new Error('--lines must be a whole number ≥ 1000');
  if (!Number.isSafeInteger(transfers) || transfers < 0 || transfers > lines) {
    throw new Error('--transfers must be a whole number between 0 and --lines');
  }
  const via = value('--via') ?? 'in-process';
  if (via !== 'in-process' && via !== 'http') throw new Error('--via must be in-process or http');
  return {
    lines,
    transfers,
    via,
    events: args.includes('--events'),
    cpuProfileDir: value('--cpu-prof'),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
  };
}

/** The statement's CSV, made a chunk of lines at a time as the request body asks for it. */
function statementBody(day: string, lines: number, matched: { networkId: string; amount: string }[]): Readable {
  const CHUNK = 5_000;
  return Readable.from(
    (function* () {
      yield 'date,amount,reference,description\n';
      for (let at = 0; at < lines; at += CHUNK) {
        let text = '';
        for (let index = at; index < Math.min(lines, at + CHUNK); index++) {
          const known = matched[index];
          text += known
            ? `${day},-${known.amount},${known.networkId},transferencia\n`
            : `${day},-${(index % 9_999) + 1}.${String(index % 100).padStart(2, '0')},CARGO-${index},"comisión ${index}"\n`;
        }
        yield text;
      }
    })(),
  );
}

async function main(args: string[]): Promise<void> {
  const plan = planFromArgs(args);
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(`[statements ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  if (!(await postgresReachable(plan.postgresUrl))) {
    log('postgres: no server at BENCH_POSTGRES_URL, nothing measured');
    return;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-statements-'));
  const databaseUrl = await createBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
  const sandbox = await startSandboxProcess(workDir);
  const adminToken = randomBytes(24).toString('base64url');
  const { bank } = sandbox;
  const reconciler = await startReadyProcess(
    join(dirname(require.resolve('@giro/reconciler/package.json')), 'dist', 'main.js'),
    {
      cwd: workDir,
      readyEvent: 'reconciler-ready',
      timeoutMs: 120_000,
      ...(plan.cpuProfileDir !== undefined && { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${plan.cpuProfileDir}`] }),
      env: {
        BANK_BASE_URL: bank.url,
        ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
        BANK_CA_FILE: bank.files.ca,
        BANK_CERT_FILE: bank.files.cert,
        BANK_KEY_FILE: bank.files.key,
        BANK_TOKEN: bank.token,
        BANK_HMAC_SECRET: bank.hmacSecret,
        BANK_HMAC_PRESET: bank.hmac.preset,
        ...(bank.hmac.keyId && { BANK_HMAC_KEY_ID: bank.hmac.keyId }),
        SOURCE_ACCOUNTS: SOURCE_ACCOUNTS_ENV,
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: adminToken,
        AUDIT_HMAC_KEY: randomBytes(32).toString('base64url'),
        PORT: '0',
        SWEEP_INTERVAL_MS: '3600000',
        ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
      },
    },
  );
  const pid = reconciler.child.pid as number;
  const url = String(reconciler.ready.url);
  const headers = { authorization: `Bearer ${adminToken}` };
  const rows: string[] = [];
  let verdict = '';
  try {
    const matched: { networkId: string; amount: string }[] = [];
    for (let index = 0; index < plan.transfers; index++) {
      const answer = await fetch(`${url}/admin/transfers`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(transferRequest(1_000_000 + index)),
      });
      const movement = (await answer.json()) as { networkId: string | null; amount: string };
      if (movement.networkId !== null) matched.push({ networkId: movement.networkId, amount: movement.amount });
    }
    log(`${matched.length} transfers created with a networkId`);
    const day = businessDayOf(new Date());
    // Written to a file first, as an operator uploads one: an upload must keep a minimum rate (server-timeouts.ts),
    // which a file generated while sent may not keep on a busy machine.
    const file = join(workDir, 'statement.csv');
    await pipeline(statementBody(day, plan.lines, matched), createWriteStream(file));
    log(`statement written: ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`);
    const importOnce = async (label: string) => {
      const rssBefore = peakRssMiB(pid);
      const cpuBefore = cpuTimeMs(pid) ?? 0;
      const postgres = new ProcessGroupCpu('postgres', 500, BENCH_DATABASE);
      postgres.start();
      const at = performance.now();
      const answer = await fetch(`${url}/admin/statements?account=${ACCOUNT}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: createReadStream(file) as unknown as RequestInit['body'],
        duplex: 'half',
      } as RequestInit);
      const report = (await answer.json()) as { id: string; lines: number; counts: Record<string, number> };
      const seconds = (performance.now() - at) / 1000;
      const postgresMs = postgres.stop();
      if (answer.status !== 200) throw new Error(`POST /admin/statements answered ${answer.status}`);
      const cpu = ((cpuTimeMs(pid) ?? 0) - cpuBefore) / 1000;
      const postgresCpu = postgresMs === undefined ? '–' : (postgresMs / 1000).toFixed(1);
      log(`${label}: ${seconds.toFixed(1)} s, ${JSON.stringify(report.counts)}`);
      rows.push(
        `| ${label} | ${report.lines} | ${report.counts.matched} | ${seconds.toFixed(1)} | ${cpu.toFixed(1)} | ${postgresCpu} | ${rssBefore} | ${peakRssMiB(pid)} |`,
      );
      return seconds;
    };
    const inProcess = async (label: string) => {
      const result = await importInProcess(file, ACCOUNT, databaseUrl, BENCH_DATABASE, plan.events);
      log(`${label}: ${result.seconds.toFixed(1)} s, ${JSON.stringify(result)}`);
      const postgresCpu = result.postgresCpuSeconds?.toFixed(1) ?? '–';
      rows.push(
        `| ${label} | ${result.lines} | ${result.matched} | ${result.seconds.toFixed(1)} | ${result.cpuSeconds.toFixed(1)} | ${postgresCpu} | ${result.peakRssBeforeMiB} | ${result.peakRssAfterMiB} |`,
      );
      return result.seconds;
    };
    const run = plan.via === 'http' ? importOnce : inProcess;
    const first = await run('import');
    await run('the same file again');
    verdict = `${first <= GOAL_SECONDS ? 'within' : 'ABOVE'} the goal of ${GOAL_SECONDS} s`;
  } finally {
    await reconciler.stop();
    await sandbox.stop();
    await dropBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
    rmSync(workDir, { recursive: true, force: true });
  }
  const where =
    plan.via === 'http'
      ? 'through POST /admin/statements (the reconciler)'
      : `in process (the admin reader and the store${plan.events ? ', its webhook events written' : ''})`;
  console.log(
    `Statement import on Postgres ${where}, ${plan.lines} lines (${plan.transfers} of them the API's transfers):\n`,
  );
  console.log(
    '| run | lines | matched | seconds | importer CPU s | Postgres CPU s | peak RSS before MiB | peak RSS after MiB |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  console.log(rows.join('\n'));
  console.log(`\n${verdict}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
