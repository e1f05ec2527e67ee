import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSandboxLedgerFile } from './sandbox-ledger-file';

describe('prepareSandboxLedgerFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-ledger-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the ledger beside giro's SQLite file while that database exists", () => {
    const database = join(dir, 'giro.sqlite');
    writeFileSync(database, '');
    writeFileSync(`${database}.sandbox-bank.jsonl`, '{"idTag":"ABCDEF"}\n');
    expect(prepareSandboxLedgerFile(`sqlite:${database}`)).toBe(`${database}.sandbox-bank.jsonl`);
    expect(existsSync(`${database}.sandbox-bank.jsonl`)).toBe(true);
  });

  it('forgets a ledger left beside a database that is gone: a fresh start on both sides', () => {
    const database = join(dir, 'nested', 'giro.sqlite');
    expect(prepareSandboxLedgerFile(`sqlite:${database}`)).toBe(`${database}.sandbox-bank.jsonl`);
    expect(existsSync(join(dir, 'nested'))).toBe(true);
    writeFileSync(`${database}.sandbox-bank.jsonl`, '{"idTag":"ABCDEF"}\n');
    prepareSandboxLedgerFile(`sqlite:${database}`);
    expect(existsSync(`${database}.sandbox-bank.jsonl`)).toBe(false);
  });

  it('keeps it in data/ with a database on a server, which a restart keeps', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/giro';
    expect(prepareSandboxLedgerFile(url, dir)).toBe(join(dir, 'data', 'sandbox-bank-ledger.jsonl'));
    expect(existsSync(join(dir, 'data'))).toBe(true);
    writeFileSync(join(dir, 'data', 'sandbox-bank-ledger.jsonl'), '{"idTag":"ABCDEF"}\n');
    prepareSandboxLedgerFile(url, dir);
    expect(existsSync(join(dir, 'data', 'sandbox-bank-ledger.jsonl'))).toBe(true);
  });

  it('reads a relative SQLite path from the working directory', () => {
    expect(prepareSandboxLedgerFile('sqlite:./data/giro.sqlite', dir)).toBe(
      join(dir, 'data', 'giro.sqlite.sandbox-bank.jsonl'),
    );
  });

  it('keeps none for an in-memory database, which forgets too', () => {
    expect(prepareSandboxLedgerFile('sqlite::memory:')).toBeUndefined();
  });
});
