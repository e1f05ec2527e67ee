import { existsSync } from 'node:fs';
import {
  ApiKeyNameTakenError,
  ApiKeyNotFoundError,
  ApiKeyService,
  ApiKeyValidationError,
  type ApiKeyView,
  AuditService,
  dataSourceOptionsFromUrl,
  runTransferMigrations,
  systemClock,
} from '@giro/transfer-module';
import { AuditTrail } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { databaseUrlFromEnv } from '../config/reconciler-config';
import { CLI_ACTOR } from './cli-actor';
import { AuditKeyError, auditKeyOfCommand } from './cli-audit-key';
import { KEYS_USAGE, type KeysCommand, KeysUsageError, parseKeysArgs } from './keys-args';

/** Where the command writes: stdout for its answer, stderr for refusals. */
export interface KeysOutput {
  out(line: string): void;
  err(line: string): void;
}

const processOutput: KeysOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * `giro-reconciler keys create|list|revoke`: the admin API's keys, on DATABASE_URL's database (migrated first, so
 * keys can be made before the first start). The same ApiKeyService as the admin API, so the same rules: a refusal
 * names the flag and the rule and changes nothing (exit status 1; 2 for a malformed command line). A creation or
 * revocation, done or refused, is recorded in the audit trail as the actor `cli` (action key.create, key.revoke),
 * keyed with AUDIT_HMAC_KEY (required with a bank; sandbox mode's kept key without one); a key it creates is minted
 * by `cli`.
 */
export async function keys(args: readonly string[], output: KeysOutput = processOutput): Promise<void> {
  let command: KeysCommand;
  try {
    command = parseKeysArgs(args);
  } catch (error) {
    if (!(error instanceof KeysUsageError)) throw error;
    output.err(`giro-reconciler keys: ${error.message}\n\n${KEYS_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  let hmacKey: string | undefined;
  try {
    // The rows it appends continue the trail the reconciler keys: with the same key.
    const appends = command.action !== 'list';
    hmacKey = auditKeyOfCommand(process.env, { required: appends, create: appends });
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error;
    output.err(`giro-reconciler keys ${command.action}: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrlFromEnv(process.env)));
  await dataSource.initialize();
  try {
    await runTransferMigrations(dataSource);
    const trail = new AuditTrail(dataSource, systemClock, { hmacKey });
    const service = new ApiKeyService(dataSource, { audit: trail });
    if (command.action === 'list') await run(command, service, output);
    else {
      await new AuditService(trail).runAs(CLI_ACTOR, `key.${command.action}`, () => run(command, service, output), {
        target: command.name,
      });
    }
  } catch (error) {
    const message = refusal(error, command);
    if (message === undefined) throw error;
    output.err(`giro-reconciler keys ${command.action}: ${message}`);
    process.exitCode = 1;
  } finally {
    await dataSource.destroy();
  }
}

async function run(command: KeysCommand, service: ApiKeyService, output: KeysOutput): Promise<void> {
  if (command.action === 'create') {
    const created = await service.createKey({ name: command.name, role: command.role }, CLI_ACTOR.keyId);
    output.out(`created API key "${created.name}" (role ${created.role}, id ${created.keyId})`);
    output.out('it is shown this once and cannot be recovered (only its hash is stored): store it now');
    // Alone on the last line: `giro-reconciler keys create … | tail -n 1` is the key.
    output.out(created.key);
    return;
  }
  if (command.action === 'revoke') {
    const revoked = await service.revokeKey(command.name);
    output.out(`revoked API key "${revoked.name}" (id ${revoked.keyId}): every replica refuses it within a second`);
    return;
  }
  const listed = await service.listKeys();
  if (command.json) {
    output.out(JSON.stringify(listed));
    return;
  }
  for (const line of keysTable(listed)) output.out(line);
}

/** The keys as an aligned table, one per line, never a secret. */
export function keysTable(listed: readonly ApiKeyView[]): string[] {
  if (listed.length === 0) return ['no API keys (create one: giro-reconciler keys create --name NAME --role ROLE)'];
  const rows = [
    ['NAME', 'ROLE', 'STATE', 'ID', 'CREATED', 'CREATED BY'],
    ...listed.map((key) => [
      key.name,
      key.role,
      key.active ? 'active' : `revoked ${key.revokedAt}`,
      key.keyId,
      key.createdAt,
      key.createdBy ?? '-',
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] as number))
      .join('  ')
      .trimEnd(),
  );
}

/** What to tell the operator for a refusal, with the command line's flag names; undefined: not a refusal. */
function refusal(error: unknown, command: KeysCommand): string | undefined {
  const flag = (field: string) => (command.action === 'revoke' && field === 'name' ? 'NAME' : `--${field}`);
  if (error instanceof ApiKeyValidationError) {
    return error.violations
      .map(
        (violation) =>
          `${violation.field === '' ? '(request)' : flag(violation.field)} ${violation.message} [${violation.rule}]`,
      )
      .join('; ');
  }
  if (error instanceof ApiKeyNameTakenError) return `--name: ${error.message}`;
  if (error instanceof ApiKeyNotFoundError) return `${error.message} (see giro-reconciler keys list)`;
  return undefined;
}
