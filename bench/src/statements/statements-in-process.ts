import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BankCalendar, dataSourceOptionsFromUrl, type StatementLineInput, systemClock } from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { MovementStore } from '../lookup-index/lookup-index-store';

// The webhook outbox the reconciler gives its store, from the workspace's build by path as well.
const { TransferEventOutbox, WebhookWakeUp } = require(
  join(dirname(require.resolve('@giro/transfer-module/package.json')), 'dist', 'webhooks'),
) as typeof import('@giro/transfer-module/webhooks');

import { ProcessGroupCpu } from '../process-group-cpu';
import { ownPeakRssMiB } from '../process-stats';

// The admin API's statement reader, from the workspace's build by path (the package exports its module only), as
// lookup-index-store.ts reads the store.
const adminDist = join(dirname(require.resolve('@giro/admin/package.json')), 'dist', 'statements');
const { spoolStatement } = require(
  join(adminDist, 'statement-file'),
) as typeof import('@giro/admin/statements/statement-file');
const { statementLines } = require(
  join(adminDist, 'statement-lines'),
) as typeof import('@giro/admin/statements/statement-lines');
const { DEFAULT_STATEMENT_COLUMNS } = require(
  join(adminDist, 'statement-columns'),
) as typeof import('@giro/admin/statements/statement-columns');

export interface InProcessImport {
  seconds: number;
  cpuSeconds: number;
  postgresCpuSeconds: number | undefined;
  peakRssBeforeMiB: number;
  peakRssAfterMiB: number;
  lines: number;
  matched: number;
}

/**
 * The statement file imported as `POST /admin/statements` imports it, in this process: spooled from a stream
 * (its sha-256), read back in batches by the admin API's reader, matched and stored by the store on `databaseUrl`.
 * With `events`, the store writes the webhook events as the reconciler's does (one `statement.unknown_debit` per
 * debit no transfer explains). Its wall time, this process's CPU time, the database's backends' CPU time
 * (`database`), and this process's peak resident set before and after.
 */
export async function importInProcess(
  file: string,
  account: string,
  databaseUrl: string,
  database: string,
  events: boolean,
): Promise<InProcessImport> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  try {
    const outbox = events ? new TransferEventOutbox(new WebhookWakeUp()) : undefined;
    const store = new MovementStore(dataSource, systemClock, { outbox });
    const peakRssBeforeMiB = ownPeakRssMiB();
    const postgres = new ProcessGroupCpu('postgres', 500, database);
    postgres.start();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const body = Object.assign(createReadStream(file), { headers: { 'content-type': 'text/csv' } });
    const spooled = await spoolStatement(body as unknown as IncomingMessage);
    let report: { lines: number; counts: { matched: number } };
    try {
      report = await store.importStatement(
        { account, sha256: spooled.sha256, by: null, calendar: new BankCalendar(), graceDays: 2 },
        statementLines(spooled, DEFAULT_STATEMENT_COLUMNS) as AsyncIterable<StatementLineInput[]>,
      );
    } finally {
      await spooled.discard();
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const postgresMs = postgres.stop();
    return {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      postgresCpuSeconds: postgresMs === undefined ? undefined : postgresMs / 1000,
      peakRssBeforeMiB,
      peakRssAfterMiB: ownPeakRssMiB(),
      lines: report.lines,
      matched: report.counts.matched,
    };
  } finally {
    await dataSource.destroy();
  }
}
