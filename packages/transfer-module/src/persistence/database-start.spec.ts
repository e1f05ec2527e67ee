import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CuttableProxy } from '@test-support/cuttable-proxy';
import { describeWithPostgres } from '@test-support/postgres';
import { TEST_POSTGRES_URL } from '@test-support/postgres-url';
import { DatabaseStartError, initializeWhenReachable } from './database-start';
import { dataSourceOptionsFromUrl } from './engine/data-source-options';

describeWithPostgres('initializeWhenReachable on Postgres', () => {
  let proxy: CuttableProxy;
  let throughProxy: string;

  beforeEach(async () => {
    const server = new URL(TEST_POSTGRES_URL);
    proxy = await CuttableProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const url = new URL(TEST_POSTGRES_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    throughProxy = url.toString();
  });
  afterEach(() => proxy.close());

  it('waits while the server cannot be reached, says so once, and opens once it answers', async () => {
    proxy.cutOff();
    const said: string[] = [];
    const opening = initializeWhenReachable(dataSourceOptionsFromUrl(throughProxy), {
      timeoutMs: 30_000,
      notify: (message) => said.push(message),
    });
    // Several attempts are refused meanwhile (0.25 s, then 0.5 s, then 1 s apart): waited for, however slow the
    // machine (the bound stays within the opening's 30 s).
    const deadline = Date.now() + 20_000;
    while (proxy.refused < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(proxy.refused).toBeGreaterThanOrEqual(3);
    expect(said).toEqual([
      expect.stringMatching(/^the database cannot be reached \(.+\): trying again for up to 30 s$/),
    ]);
    proxy.restore();
    const dataSource = await opening;
    try {
      expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(said).toHaveLength(2);
      expect(said[1]).toMatch(/^the database answers, after \d+\.\d s$/);
    } finally {
      await dataSource.destroy();
    }
  });

  it('gives up after the timeout with a DatabaseStartError naming the wait and the last cause', async () => {
    proxy.cutOff();
    const said: string[] = [];
    const failure = await initializeWhenReachable(dataSourceOptionsFromUrl(throughProxy), {
      timeoutMs: 1_000,
      notify: (message) => said.push(message),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseStartError);
    const [, waited] = /^the database did not answer within (\d\.\d) s \(.+\)$/.exec((failure as Error).message) ?? [];
    // It tried until the deadline, the last attempt at the deadline itself.
    expect(Number(waited)).toBeGreaterThanOrEqual(1);
    expect((failure as Error).cause).toBeInstanceOf(Error);
    expect(said).toHaveLength(1);
  });

  it('fails at the first refusal when the timeout is 0', async () => {
    proxy.cutOff();
    const said: string[] = [];
    const failure = await initializeWhenReachable(dataSourceOptionsFromUrl(throughProxy), {
      timeoutMs: 0,
      notify: (message) => said.push(message),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseStartError);
    expect((failure as Error).message).toMatch(/^the database cannot be opened: .+/);
    expect(said).toEqual([]);
  });

  it('does not wait for what waiting cannot mend: a database that does not exist', async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = '/giro_no_such_database';
    const said: string[] = [];
    const failure = await initializeWhenReachable(dataSourceOptionsFromUrl(url.toString()), {
      timeoutMs: 30_000,
      notify: (message) => said.push(message),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseStartError);
    expect((failure as Error).message).toBe(
      'the database cannot be opened: database "giro_no_such_database" does not exist',
    );
    expect(((failure as Error).cause as { code?: string }).code).toBe('3D000');
    expect(said).toEqual([]);
  });
});

describe('initializeWhenReachable on SQLite', () => {
  it('does not wait for a file it cannot open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'giro-database-start-'));
    try {
      // A file where the database's directory should be.
      writeFileSync(join(dir, 'not-a-directory'), '');
      const said: string[] = [];
      const failure = await initializeWhenReachable(
        dataSourceOptionsFromUrl(`sqlite:${join(dir, 'not-a-directory', 'giro.sqlite')}`),
        { timeoutMs: 30_000, notify: (message) => said.push(message) },
      ).catch((error: unknown) => error);
      // Node's fs refusing TypeORM's mkdir of the database's directory.
      expect(failure).toBeInstanceOf(DatabaseStartError);
      expect(((failure as Error).cause as { code?: string }).code).toBe('EEXIST');
      expect(said).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
