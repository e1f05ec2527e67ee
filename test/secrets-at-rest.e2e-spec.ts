import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import {
  encryptionKeyFrom,
  newEncryptionKey,
  SecretCipher,
  SecretUnreadableError,
  WebhookStore,
} from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { describeOnEachEngine } from './support/engines';
import { startTestReconciler, type TestReconciler } from './support/reconciler-harness';
import { runReconcilerCommand } from './support/reconciler-process';

// Webhook signing secrets at rest: sealed (AES-256-GCM, tagged with the key's id) in the column, absent from an
// SQLite database's bytes (its file and its write-ahead log), sealed at start when they were stored in clear before
// a key was given, and moved to another key by `giro-reconciler secrets rotate` (the build in apps/reconciler/dist).

const RECEIVER = { url: 'https://receiver.example/giro-hooks' };

describeOnEachEngine('webhook secrets encrypted at rest', (engine) => {
  let reconciler: TestReconciler | undefined;
  let databaseUrl: string;

  beforeEach(async () => {
    databaseUrl = await engine.createDatabaseUrl();
  });
  afterEach(async () => {
    await reconciler?.close();
    reconciler = undefined;
  });

  const start = async (encryptionKey?: string) => {
    reconciler = await startTestReconciler({ databaseUrl, ...(encryptionKey && { encryptionKey }) });
    return reconciler;
  };
  const stop = async () => {
    await reconciler?.close();
    reconciler = undefined;
  };

  /** Registers an endpoint; its secret, shown this once, and its id. */
  const register = async (r: TestReconciler) => {
    const created = await r.request('POST', '/admin/webhooks', { body: RECEIVER });
    expect(created.status).toBe(201);
    return { id: created.json.endpoint.id as string, secret: created.json.secret as string };
  };

  const withDatabase = async <T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> => {
    const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrl));
    await dataSource.initialize();
    try {
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  };
  const storedSecret = (id: string) =>
    withDatabase(async (dataSource) => {
      const [row] = await dataSource.query(
        dataSource.options.type === 'postgres'
          ? 'SELECT "secret" FROM "giro_webhook_endpoints" WHERE "id" = $1'
          : 'SELECT "secret" FROM "giro_webhook_endpoints" WHERE "id" = ?',
        [id],
      );
      return row.secret as string;
    });

  /** Every byte SQLite keeps of the database: its file, and its write-ahead log and shared memory when present. */
  const sqliteBytes = (): Buffer => {
    const path = databaseUrl.slice('sqlite:'.length);
    return Buffer.concat(
      [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file)).map((file) => readFileSync(file)),
    );
  };
  const expectNotInDatabaseBytes = (secret: string) => {
    if (engine.kind !== 'sqlite') return;
    const bytes = sqliteBytes();
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(secret)).toBe(false);
    // The key material alone, without its `whsec_` prefix, is not there either.
    expect(bytes.includes(secret.slice('whsec_'.length))).toBe(false);
  };

  it('stores a new secret sealed with the key, tagged with its id, and never in clear', async () => {
    const key = newEncryptionKey();
    const keyId = encryptionKeyFrom(key)?.id;
    const r = await start(key);
    const { id, secret } = await register(r);
    // Still readable where it is used: the endpoint's view, and the signing of a delivery (a test event queued).
    expect((await r.request('GET', `/admin/webhooks/${id}`)).status).toBe(200);
    await stop();

    const stored = await storedSecret(id);
    expect(stored).toMatch(new RegExp(`^v1:${keyId}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$`));
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    expectNotInDatabaseBytes(secret);
    await withDatabase(async (dataSource) => {
      const store = new WebhookStore(dataSource, systemClock, { cipher: new SecretCipher(encryptionKeyFrom(key)) });
      expect((await store.findEndpoint(id))?.secret).toBe(secret);
    });
  });

  it('seals at start the secrets stored in clear before a key was given, leaving no clear copy', async () => {
    const { id, secret } = await register(await start());
    await stop();
    expect(await storedSecret(id)).toBe(secret);
    if (engine.kind === 'sqlite') expect(sqliteBytes().includes(secret)).toBe(true);

    const key = newEncryptionKey();
    const r = await start(key);
    expect((await r.request('GET', `/admin/webhooks/${id}`)).json.id).toBe(id);
    await stop();
    expect(await storedSecret(id)).toMatch(new RegExp(`^v1:${encryptionKeyFrom(key)?.id}:`));
    expectNotInDatabaseBytes(secret);
  });

  it('moves every secret to a new key with `giro-reconciler secrets rotate --new-key`', async () => {
    const oldKey = newEncryptionKey();
    const newKey = newEncryptionKey();
    const { id, secret } = await register(await start(oldKey));
    await stop();

    const rotated = await runReconcilerCommand(tmpdir(), { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: oldKey }, [
      'secrets',
      'rotate',
      '--new-key',
      newKey,
    ]);
    expect(rotated.output).toContain(`secrets re-encrypted under key ${encryptionKeyFrom(newKey)?.id}: 1 webhook`);
    expect(rotated.code).toBe(0);
    expect(await storedSecret(id)).toMatch(new RegExp(`^v1:${encryptionKeyFrom(newKey)?.id}:`));

    await withDatabase(async (dataSource) => {
      const current = new WebhookStore(dataSource, systemClock, {
        cipher: new SecretCipher(encryptionKeyFrom(newKey)),
      });
      expect((await current.findEndpoint(id))?.secret).toBe(secret);
      const stale = new WebhookStore(dataSource, systemClock, { cipher: new SecretCipher(encryptionKeyFrom(oldKey)) });
      await expect(stale.findEndpoint(id)).rejects.toBeInstanceOf(SecretUnreadableError);
    });
    // A reconciler started with the new key reads it.
    const r = await start(newKey);
    expect((await r.request('GET', `/admin/webhooks/${id}`)).status).toBe(200);
  });
});
