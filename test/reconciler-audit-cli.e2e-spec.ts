import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runReconcilerCommand } from './support/reconciler-process';

// `giro-reconciler audit verify` as a real process (the swc build: `pnpm build` first) on an SQLite file: the keys
// made and revoked with `giro-reconciler keys` are audited as the actor `cli`; a row changed behind the append-only
// triggers is found, with its seq, and the command exits 1.

describe('giro-reconciler audit verify', () => {
  let dir: string;
  let env: Record<string, string>;
  const database = () => join(dir, 'giro.sqlite');
  const run = (...args: string[]) => runReconcilerCommand(dir, env, args);
  const withDatabase = <T>(work: (db: Database.Database) => T): T => {
    const db = new Database(database(), { fileMustExist: true });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-audit-cli-'));
    env = { DATABASE_URL: `sqlite:${database()}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says the chain is intact, with the keys commands audited as the cli', async () => {
    expect((await run('audit', 'verify')).output).toBe('audit trail intact: 0 rows\n');
    expect((await run('keys', 'create', '--name', 'ops', '--role', 'operator')).code).toBe(0);
    expect((await run('keys', 'revoke', 'ops')).code).toBe(0);
    expect((await run('keys', 'revoke', 'nobody')).code).toBe(1);
    expect((await run('keys', 'list')).code).toBe(0);
    const verified = await run('audit', 'verify');
    expect(verified).toEqual({ code: 0, output: 'audit trail intact: 3 rows\n' });
    const rows = withDatabase(
      (db) => db.prepare('select actor_key_id, action, target, outcome from giro_audit order by seq').all() as object[],
    );
    expect(rows).toEqual([
      { actor_key_id: 'cli', action: 'key.create', target: 'ops', outcome: 'ok' },
      { actor_key_id: 'cli', action: 'key.revoke', target: 'ops', outcome: 'ok' },
      { actor_key_id: 'cli', action: 'key.revoke', target: 'nobody', outcome: 'refused' },
    ]);
    // Six processes one after the other, each opening the database and migrating: tens of seconds on a busy machine.
  }, 90_000);

  it('finds a tampered row and exits 1', async () => {
    withDatabase((db) => {
      db.exec('DROP TRIGGER "TRG_giro_audit_no_update"');
      db.prepare(`UPDATE giro_audit SET "after" = '{"revokedAt":null}' WHERE seq = 2`).run();
    });
    expect(await run('audit', 'verify')).toEqual({
      code: 1,
      output: 'audit trail broken at seq 2: hash mismatch: the row was changed after it was written\n',
    });
  });

  it('refuses another subcommand with its usage (exit 2)', async () => {
    const refused = await run('audit', 'check');
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('usage: giro-reconciler audit verify');
  });
});
