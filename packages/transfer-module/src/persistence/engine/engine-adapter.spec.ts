import { DataSource } from 'typeorm';
import { TRANSFER_ENTITIES } from '../entities';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { engineAdapterFor, engineCapabilitiesOf, transactionsFor } from './engine-adapter';
import { PostgresEngine } from './postgres-engine';
import { SqliteEngine } from './sqlite-engine';

describe('engineAdapterFor', () => {
  it('makes one adapter per data source, of its engine, shared by every store on it', () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: TRANSFER_ENTITIES });
    const other = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: TRANSFER_ENTITIES });
    const postgres = new DataSource(dataSourceOptionsFromUrl('postgres://giro@db.internal:5432/giro'));

    expect(engineAdapterFor(sqlite)).toBeInstanceOf(SqliteEngine);
    expect(engineAdapterFor(postgres)).toBeInstanceOf(PostgresEngine);
    expect(engineAdapterFor(sqlite)).toBe(engineAdapterFor(sqlite));
    expect(transactionsFor(sqlite)).toBe(engineAdapterFor(sqlite).transactions);
    expect(engineAdapterFor(other)).not.toBe(engineAdapterFor(sqlite));
  });

  it('refuses a data source of a type giro does not support, naming the types it does', () => {
    const mysql = { options: { type: 'mysql' } } as DataSource;
    expect(() => engineAdapterFor(mysql)).toThrow(
      'giro persistence supports the TypeORM types "better-sqlite3" and "postgres", got "mysql"',
    );
  });
});

describe('engineCapabilitiesOf', () => {
  it('knows each engine from its options alone, before any connection', () => {
    expect(engineCapabilitiesOf(dataSourceOptionsFromUrl('sqlite:./data/giro.sqlite'))).toEqual({
      waitsForServerAtStart: false,
      sharedByReplicas: false,
      oneStatementWrites: false,
    });
    expect(engineCapabilitiesOf(dataSourceOptionsFromUrl('postgresql://giro@db.internal/giro'))).toEqual({
      waitsForServerAtStart: true,
      sharedByReplicas: true,
      oneStatementWrites: true,
    });
    expect(engineCapabilitiesOf({ type: 'mysql' })).toBeUndefined();
  });
});

describe('the engines spell the same statement each their way', () => {
  const sqlite = engineAdapterFor(new DataSource({ type: 'better-sqlite3', database: ':memory:' }));
  const postgres = engineAdapterFor(new DataSource(dataSourceOptionsFromUrl('postgres://giro@db.internal/giro')));

  it('placeholders, row locks and the lease condition', () => {
    const text = 'SELECT * FROM "t" m WHERE m."a" = ? AND m."b" IN (?, ?)';
    expect(sqlite.sql(text)).toBe(text);
    expect(postgres.sql(text)).toBe('SELECT * FROM "t" m WHERE m."a" = $1 AND m."b" IN ($2, $3)');
    expect(postgres.sql(text)).toBe(postgres.sql(text));
    expect(sqlite.skipLocked('m')).toBe('');
    expect(postgres.skipLocked('m')).toBe(' FOR UPDATE OF m SKIP LOCKED');
    expect(postgres.skipLocked()).toBe(' FOR UPDATE SKIP LOCKED');
    // A lease held by a replica gone silent is free only where replicas beat.
    expect(sqlite.unleasedParameters(1_000, 'me')).toEqual([1_000]);
    expect(postgres.unleased('m')).toContain('"giro_replicas"');
    expect(postgres.unleasedParameters(20_000, 'me')).toEqual([20_000, 10_000, 'me', 10_000, 'me']);
    expect(postgres.unleasedParameters(20_000, undefined)).toEqual([20_000, 10_000, null, 10_000, null]);
  });

  it("a batch's values as one array on Postgres, a placeholder each on SQLite", () => {
    expect(sqlite.oneOf('text', ['a', 'b', 'c'])).toEqual({ text: 'IN (?, ?, ?)', parameters: ['a', 'b', 'c'] });
    expect(postgres.oneOf('text', ['a', 'b', 'c'])).toEqual({
      text: '= ANY(?::text[])',
      parameters: [['a', 'b', 'c']],
    });
    // One parameter and the same text whatever the count: nothing for the server to parse per value.
    expect(postgres.oneOf('bigint', [1]).text).toBe(postgres.oneOf('bigint', [1, 2, 3]).text);
  });

  it("a JSON member read by each engine's JSON functions, its name never anything but a name", () => {
    expect(sqlite.jsonMember('h."detail"', 'kind')).toBe(`json_extract(h."detail", '$.kind')`);
    expect(postgres.jsonMember('h."detail"', 'kind')).toBe(`(h."detail")::jsonb ->> 'kind'`);
    for (const adapter of [sqlite, postgres]) {
      expect(() => adapter.jsonMember('h."detail"', "kind' OR '1")).toThrow('not a JSON member name');
    }
  });
});
