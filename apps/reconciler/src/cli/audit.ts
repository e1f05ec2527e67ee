import { existsSync } from 'node:fs';
import { AuditService, dataSourceOptionsFromUrl, runTransferMigrations, systemClock } from '@giro/transfer-module';
import { AuditTrail } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { databaseUrlFromEnv } from '../config/reconciler-config';
import { AUDIT_USAGE, AuditUsageError, parseAuditArgs } from './audit-args';
import { AuditKeyError, auditKeyOfCommand } from './cli-audit-key';

export { AUDIT_USAGE };

/**
 * `giro-reconciler audit verify [--checkpoint SEQ:HASH]...`: `audit trail intact: N rows` (exit 0) or
 * `audit trail broken at seq N: reason` (1); 2 for a malformed command line or audit key.
 */
export async function audit(args: readonly string[]): Promise<void> {
  let checkpoints: ReturnType<typeof parseAuditArgs>['checkpoints'];
  try {
    ({ checkpoints } = parseAuditArgs(args));
  } catch (error) {
    if (!(error instanceof AuditUsageError)) throw error;
    process.stderr.write(`giro-reconciler audit: ${error.message}\n\n${AUDIT_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  let hmacKey: string | undefined;
  try {
    hmacKey = auditKeyOfCommand(process.env, { required: false, create: false });
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error;
    process.stderr.write(`giro-reconciler audit: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrlFromEnv(process.env)));
  await dataSource.initialize();
  try {
    await runTransferMigrations(dataSource);
    const result = await new AuditService(new AuditTrail(dataSource, systemClock, { hmacKey })).verify(checkpoints);
    if (result.intact) {
      const unkeyed =
        result.unkeyedRows === undefined
          ? ''
          : ` (the first ${result.unkeyedRows} hashed without a key, before AUDIT_HMAC_KEY was set)`;
      process.stdout.write(`audit trail intact: ${result.rows} rows${unkeyed}\n`);
    } else {
      process.stdout.write(`audit trail broken at seq ${result.brokenAt}: ${result.reason}\n`);
      if (hmacKey === undefined) {
        process.stderr.write('AUDIT_HMAC_KEY is not set: rows keyed with it cannot be verified without it\n');
      }
      process.exitCode = 1;
    }
  } finally {
    await dataSource.destroy();
  }
}
