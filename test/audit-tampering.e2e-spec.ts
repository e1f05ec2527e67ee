import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { dataSourceOptionsFromUrl } from '@giro/transfer-module';
import { dropAuditTriggers, rewriteActorAndRehash } from '@giro/transfer-module/persistence/testing/audit-tampering';
import { DataSource } from 'typeorm';
import { describeOnEachEngine } from './support/engines';
import { testCertificates } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  runReconcilerCommand,
  startReconcilerProcess,
} from './support/reconciler-process';

// An audit trail no database writer can rewrite, replayed as a hostile user would, on each engine, with real
// processes: the reconciler (keyed with AUDIT_HMAC_KEY) logs its checkpoints; someone who can write the database
// but has not the key rewrites row 10's actor and re-hashes every row after it with plain sha-256, then deletes the
// tail, then empties the table; `giro-reconciler audit verify` with the key names row 10, and with the checkpoint
// logged at shutdown fails once the tail is gone.

const CHECKPOINT_LINE = /audit checkpoint seq=(\d+) hash=([0-9a-f]{64})/g;

describeOnEachEngine('an audit trail no database writer can rewrite', (engine) => {
  let dir: string;
  let bank: SandboxBank;
  let env: Record<string, string>;
  const processes: ReconcilerProcess[] = [];
  const verify = (...args: string[]) => runReconcilerCommand(dir, env, ['audit', 'verify', ...args]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-audit-tampering-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({ tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert } });
    env = { ...bankEnvironment(dir, certs, bank.url), DATABASE_URL: await engine.createDatabaseUrl() };
  });
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The database as its writer sees it, outside giro. */
  async function asDatabaseWriter(work: (dataSource: DataSource) => Promise<void>): Promise<void> {
    const dataSource = await new DataSource(dataSourceOptionsFromUrl(env.DATABASE_URL as string)).initialize();
    try {
      await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }

  it('names the row rewritten and re-hashed without the key, and fails against a checkpoint once the tail is gone', async () => {
    const reconciler = await startReconcilerProcess(dir, env);
    processes.push(reconciler);
    for (let index = 1; index <= 12; index++) {
      expect((await reconciler.admin('POST', '/admin/keys', { name: `key-${index}`, role: 'viewer' })).status).toBe(
        201,
      );
    }
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
    // The last line logged, at shutdown: the trail's last row.
    const checkpoints = [...reconciler.running.output().matchAll(CHECKPOINT_LINE)];
    const [, seq, hash] = checkpoints[checkpoints.length - 1] ?? [];
    expect(seq).toBe('12');
    const checkpoint = `${seq}:${hash}`;
    expect(await verify('--checkpoint', checkpoint)).toEqual({ code: 0, output: 'audit trail intact: 12 rows\n' });

    // The triggers refuse the ways around them.
    await asDatabaseWriter(async (dataSource) => {
      const emptied =
        engine.kind === 'postgres'
          ? dataSource.query('TRUNCATE "giro_audit"')
          : dataSource.query(`INSERT OR REPLACE INTO "giro_audit" SELECT * FROM "giro_audit" WHERE "seq" = 10`);
      await expect(emptied).rejects.toThrow(/append-only|continue the chain/);
    });
    expect((await verify('--checkpoint', checkpoint)).code).toBe(0);

    await asDatabaseWriter(async (dataSource) => {
      await dropAuditTriggers(dataSource);
      await rewriteActorAndRehash(dataSource, 10, 'admin-token');
    });
    expect(await verify()).toEqual({
      code: 1,
      output:
        'audit trail broken at seq 10: hash mismatch: hashed without AUDIT_HMAC_KEY after keyed rows: rewritten by someone without the key\n',
    });
    // Without the key, the forgery passes the chain: the key is what catches it.
    const { AUDIT_HMAC_KEY: _withheld, ...keyless } = env;
    const unkeyed = await runReconcilerCommand(dir, keyless, ['audit', 'verify']);
    expect(unkeyed.code).toBe(1);
    expect(unkeyed.output).toContain('AUDIT_HMAC_KEY');

    // The tail deleted, then every row: the chain left is whole, the checkpoint is not in it.
    await asDatabaseWriter(async (dataSource) => {
      await dataSource.query('DELETE FROM "giro_audit" WHERE "seq" >= 9');
    });
    expect(await verify()).toEqual({ code: 0, output: 'audit trail intact: 8 rows\n' });
    expect(await verify('--checkpoint', checkpoint)).toEqual({
      code: 1,
      output:
        'audit trail broken at seq 9: checkpoint seq 12 is gone: the trail ends at seq 8 (rows deleted from its end, truncated, or restored from an older copy)\n',
    });
    await asDatabaseWriter(async (dataSource) => {
      await dataSource.query(engine.kind === 'postgres' ? 'TRUNCATE "giro_audit"' : 'DELETE FROM "giro_audit"');
    });
    expect(await verify('--checkpoint', checkpoint)).toMatchObject({
      code: 1,
      output: expect.stringMatching(/^audit trail broken at seq 1: checkpoint seq 12 is gone: the trail ends at seq 0/),
    });
  }, 120_000);
});
