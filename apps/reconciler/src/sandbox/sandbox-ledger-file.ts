import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { databaseFileOf } from '@giro/transfer-module';

/** An in-memory database names no file and no server. */
function isInMemory(databaseUrl: string): boolean {
  return databaseUrl.endsWith(':memory:');
}

/** Where sandbox mode keeps the sandbox bank's ledger when giro's database is on a server (Postgres). */
const SERVER_DATABASE_LEDGER_FILE = 'data/sandbox-bank-ledger.jsonl';

/**
 * The file that keeps the sandbox bank's ledger beside giro's database, so that after a restart the bank still
 * knows the transfers giro's database remembers sending: beside a SQLite file (`giro.sqlite` →
 * `giro.sqlite.sandbox-bank.jsonl`), or in `data/` with Postgres. None for an in-memory SQLite database,
 * which forgets too.
 *
 * A SQLite database that does not exist yet is a fresh start: a ledger left beside it by an earlier database is
 * removed, or the bank would know transfers giro does not (and refuse their originIds as repeats).
 */
export function prepareSandboxLedgerFile(databaseUrl: string, workingDirectory = process.cwd()): string | undefined {
  if (isInMemory(databaseUrl)) return undefined;
  const databaseFile = databaseFileOf(databaseUrl);
  let file: string;
  if (databaseFile !== undefined) {
    const databasePath = resolve(workingDirectory, databaseFile);
    file = `${databasePath}.sandbox-bank.jsonl`;
    if (!existsSync(databasePath)) rmSync(file, { force: true });
  } else {
    file = resolve(workingDirectory, SERVER_DATABASE_LEDGER_FILE);
  }
  mkdirSync(dirname(file), { recursive: true });
  return file;
}
