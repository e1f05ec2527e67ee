import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runReconcilerCommand } from './support/reconciler-process';

// `giro-reconciler keys` as a real process (the swc build: `pnpm build` first) on an SQLite file: create prints the
// key once, alone on its last line, and stores only its hash; list shows no secret; revoke; every refusal names the
// flag and the rule, exits non-zero and changes nothing.

describe('giro-reconciler keys', () => {
  let dir: string;
  let env: Record<string, string>;
  const database = () => join(dir, 'giro.sqlite');
  const keys = (...args: string[]) => runReconcilerCommand(dir, env, ['keys', ...args]);
  const storedRows = () => {
    const db = new Database(database(), { readonly: true, fileMustExist: true });
    try {
      return db.prepare('select * from giro_api_keys order by name').all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-keys-cli-'));
    env = { DATABASE_URL: `sqlite:${database()}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let opsKey: string;

  it('create prints the key once, alone on its last line, and stores only its hash', async () => {
    const created = await keys('create', '--name', 'ops', '--role', 'operator');
    expect(created.code).toBe(0);
    const lines = created.output.trimEnd().split('\n');
    opsKey = lines.at(-1) as string;
    expect(opsKey).toMatch(/^giro_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(lines.slice(0, -1).join('\n')).toMatch(/created API key "ops" \(role operator, id [0-9a-f]{16}\)/);
    expect(lines.filter((line) => line.includes(opsKey.slice(-64)))).toEqual([opsKey]);
    const [row] = storedRows();
    expect(row).toMatchObject({
      name: 'ops',
      role: 'operator',
      key_id: opsKey.slice(5, 21),
      revoked_at_ms: null,
      created_by_key_id: 'cli',
    });
    expect(JSON.stringify(row)).not.toContain(opsKey.slice(-64));
  });

  it('list shows every key without a secret, as a table or as JSON', async () => {
    expect((await keys('create', '--name=auditor', '--role=viewer')).code).toBe(0);
    const table = await keys('list');
    expect(table.code).toBe(0);
    const lines = table.output.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ROLE\s+STATE\s+ID\s+CREATED\s+CREATED BY$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).at(-1))).toEqual(['cli', 'cli']);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual([
      ['ops', 'operator', 'active'],
      ['auditor', 'viewer', 'active'],
    ]);
    expect(table.output).not.toContain(opsKey.slice(-64));
    expect(table.output).not.toMatch(/[0-9a-f]{64}/);

    const json = await keys('list', '--json');
    expect(JSON.parse(json.output).map((key: { name: string; active: boolean }) => [key.name, key.active])).toEqual([
      ['ops', true],
      ['auditor', true],
    ]);
    expect(json.output).not.toMatch(/[0-9a-f]{64}/);
  });

  it('revoke marks the key revoked (idempotent); list says so', async () => {
    const revoked = await keys('revoke', 'ops');
    expect(revoked.code).toBe(0);
    expect(revoked.output).toMatch(/^revoked API key "ops" \(id [0-9a-f]{16}\)/);
    expect((await keys('revoke', 'ops')).code).toBe(0);
    const listed = JSON.parse((await keys('list', '--json')).output) as { name: string; active: boolean }[];
    expect(listed.find((key) => key.name === 'ops')).toMatchObject({ active: false, revokedAt: expect.any(String) });
    expect(storedRows().find((row) => row.name === 'ops')?.revoked_at_ms).not.toBeNull();
  });

  it.each([
    [['create', '--name', 'ops', '--role', 'viewer'], 1, /keys create: --name: an API key named "ops" already exists/],
    [
      ['create', '--name', 'new-one', '--role', 'root'],
      1,
      /--role must be one of viewer, operator, approver, admin \[role\]/,
    ],
    [['create', '--name', 'Bad  Name', '--role', 'viewer'], 1, /--name must be 1 to 64 characters.*\[key_name\]/],
    [['create', '--name', 'admin-token', '--role', 'admin'], 1, /--name "admin-token" is reserved/],
    [['create', '--name', 'x'], 2, /--role is required: one of viewer, operator, approver, admin/],
    [['create', '--role', 'viewer'], 2, /--name is required/],
    [['create', '--name', 'x', '--role', 'viewer', '--key', 'mine'], 2, /unknown argument "--key"/],
    [['revoke', 'nobody'], 1, /no API key is named "nobody"/],
    [['revoke'], 2, /keys revoke takes one NAME/],
    [['rotate'], 2, /unknown keys action "rotate"/],
  ])('refuses %j with a message naming the flag and the rule, changing nothing', async (args, code, message) => {
    const before = storedRows();
    const refused = await keys(...args);
    expect({ code: refused.code, output: refused.output }).toEqual({ code, output: expect.stringMatching(message) });
    expect(refused.output).not.toMatch(/^\s+at /m);
    expect(storedRows()).toEqual(before);
  });
});
