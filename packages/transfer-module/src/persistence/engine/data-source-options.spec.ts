import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TRANSFER_ENTITIES } from '../entities';
import { TRANSFER_MIGRATIONS } from '../migrations';
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_DATABASE_URL, dataSourceOptionsFromUrl } from './data-source-options';

describe('dataSourceOptionsFromUrl', () => {
  it('defaults to a SQLite file under ./data, with giro’s entities and migrations and no synchronize', () => {
    const options = dataSourceOptionsFromUrl();
    expect(DEFAULT_DATABASE_URL).toBe('sqlite:./data/giro.sqlite');
    expect(options).toMatchObject({
      type: 'better-sqlite3',
      database: './data/giro.sqlite',
      entities: TRANSFER_ENTITIES,
      migrations: TRANSFER_MIGRATIONS,
      synchronize: false,
      migrationsRun: false,
    });
  });

  it.each(['postgres://giro@db.internal:5432/giro', 'postgresql://giro@db.internal/giro'])('reads %s', (url) => {
    expect(dataSourceOptionsFromUrl(url, { name: 'giro', poolSize: 4 })).toMatchObject({
      type: 'postgres',
      url,
      name: 'giro',
      poolSize: 4,
      entities: TRANSFER_ENTITIES,
      migrations: TRANSFER_MIGRATIONS,
      synchronize: false,
    });
  });

  it('gives a Postgres data source a pool of DEFAULT_DATABASE_POOL_SIZE (10) connections unless told otherwise', () => {
    expect(DEFAULT_DATABASE_POOL_SIZE).toBe(10);
    expect(dataSourceOptionsFromUrl('postgres://giro@db.internal/giro')).toMatchObject({ poolSize: 10 });
  });

  it('refuses other schemes naming DATABASE_URL, without echoing the rest of the URL', () => {
    const attempt = () => dataSourceOptionsFromUrl('mysql://giro:s3cr3t-pass@db.internal/giro');
    expect(attempt).toThrow(
      'DATABASE_URL must be sqlite:<file path> or postgres://…/postgresql://…, got scheme "mysql:"',
    );
    expect(attempt).not.toThrow(/s3cr3t/);
    expect(() => dataSourceOptionsFromUrl('giro.sqlite')).toThrow(/DATABASE_URL .*got no scheme/);
  });

  it('refuses a SQLite URL without a path, or written like sqlite://', () => {
    expect(() => dataSourceOptionsFromUrl('sqlite:')).toThrow(/DATABASE_URL sqlite: needs a file path/);
    expect(() => dataSourceOptionsFromUrl('sqlite://data/giro.sqlite')).toThrow(
      /DATABASE_URL takes sqlite:<file path>/,
    );
  });

  describe('on a real SQLite file', () => {
    let dir: string;
    let dataSource: DataSource | undefined;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'giro-options-'));
    });
    afterEach(async () => {
      if (dataSource?.isInitialized) await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    const pragma = async (name: string) => {
      const rows: Record<string, unknown>[] = await (dataSource as DataSource).query(`PRAGMA ${name}`);
      return Object.values(rows[0])[0];
    };

    it('creates the folder and sets WAL, synchronous=FULL, the busy timeout and foreign keys', async () => {
      const file = join(dir, 'nested', 'deeper', 'giro.sqlite');
      dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
      expect(existsSync(file)).toBe(true);
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2); // FULL
      expect(await pragma('busy_timeout')).toBe(5000);
      expect(await pragma('foreign_keys')).toBe(1);
    });

    it('takes another busy timeout when asked', async () => {
      const options = dataSourceOptionsFromUrl(`sqlite:${join(dir, 'giro.sqlite')}`, { sqliteBusyTimeoutMs: 250 });
      dataSource = await new DataSource(options).initialize();
      expect(await pragma('busy_timeout')).toBe(250);
    });
  });
});
