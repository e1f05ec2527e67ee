import { existsSync } from 'node:fs';
import { dataSourceOptionsFromUrl, runTransferMigrations, systemClock } from '@giro/transfer-module';
import { type EncryptionKey, encryptionKeyFrom, SecretCipher, WebhookStore } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { ConfigError, databaseUrlFromEnv, encryptionKeyProblems } from '../config/reconciler-config';

export const SECRETS_USAGE = `usage: giro-reconciler secrets rotate --new-key KEY

  rotate   re-encrypts every secret stored in DATABASE_URL's database (and ./.env) under KEY (base64 of 32 bytes,
           openssl rand -base64 32), opening them with ENCRYPTION_KEY (the key in use; unset when they are stored
           in clear). Then set ENCRYPTION_KEY to KEY and restart the reconcilers`;

/** `giro-reconciler secrets rotate --new-key KEY`: `secrets re-encrypted under key <id>: N endpoints` (exit 0). */
export async function secrets(args: readonly string[]): Promise<void> {
  const [command, flag, newKeyText, ...rest] = args;
  if (command !== 'rotate' || flag !== '--new-key' || newKeyText === undefined || rest.length > 0) {
    process.stderr.write(`giro-reconciler secrets: expected "rotate --new-key KEY"\n\n${SECRETS_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  const newKey = encryptionKeyFrom(newKeyText);
  if (newKey === undefined) throw new ConfigError(['--new-key must be base64 of 32 bytes (openssl rand -base64 32)']);
  const currentText = process.env.ENCRYPTION_KEY || undefined;
  const problems = encryptionKeyProblems(currentText, true);
  if (problems.length > 0) throw new ConfigError(problems);
  const current = currentText === undefined ? [] : [encryptionKeyFrom(currentText) as EncryptionKey];

  const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrlFromEnv(process.env)));
  await dataSource.initialize();
  try {
    await runTransferMigrations(dataSource);
    const store = new WebhookStore(dataSource, systemClock, { cipher: new SecretCipher(newKey, current) });
    const rewritten = await store.sealStoredSecrets();
    process.stdout.write(
      `secrets re-encrypted under key ${newKey.id}: ${rewritten} webhook endpoint(s) rewritten; set ENCRYPTION_KEY to the new key and restart the reconcilers\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}
