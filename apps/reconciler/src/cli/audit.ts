import { existsSync } from 'node:fs';
import { AuditService, dataSourceOptionsFromUrl, runTransferMigrations, systemClock } from '@giro/transfer-module';
import { AuditTrail } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { databaseUrlFromEnv } from '../config/reconciler-config';

export const AUDIT_USAGE = `usage: giro-reconciler audit verify

  verify   walks the audit trail of DATABASE_URL's database (and ./.env) in order and says whether its hash chain
           is intact (exit 0) or where it breaks and why (exit 1)`;

/** `giro-reconciler audit verify`: `audit trail intact: N rows` (exit 0) or `audit trail broken at seq N: reason` (1). */
export async function audit(args: readonly string[]): Promise<void> {
  if (args.length !== 1 || args[0] !== 'verify') {
    process.stderr.write(`giro-reconciler audit: expected "verify"\n\n${AUDIT_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrlFromEnv(process.env)));
  await dataSource.initialize();
  try {
    await runTransferMigrations(dataSource);
    const result = await new AuditService(new AuditTrail(dataSource, systemClock)).verify();
    if (result.intact) {
      process.stdout.write(`audit trail intact: ${result.rows} rows\n`);
    } else {
      process.stdout.write(`audit trail broken at seq ${result.brokenAt}: ${result.reason}\n`);
      process.exitCode = 1;
    }
  } finally {
    await dataSource.destroy();
  }
}
