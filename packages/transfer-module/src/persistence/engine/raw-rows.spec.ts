import { DataSource, type EntityMetadata } from 'typeorm';
import { MovementEntity, MovementHistoryEntity, TRANSFER_ENTITIES } from '../entities';
import { historyFromRow, movementFromRow, numberedPlaceholders } from './raw-rows';

// The movement and history mappers are written out by hand for speed: they must build exactly what TypeORM's
// metadata says, column by column, with the entity's transformers, on rows as either engine returns them.

/** What reading the row through the metadata gives (every column, its transformer applied). */
function byMetadata(metadata: EntityMetadata, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    metadata.columns.map((column) => {
      const transformer = column.transformer;
      const value = row[column.databaseName];
      return [column.propertyName, transformer && !Array.isArray(transformer) ? transformer.from(value) : value];
    }),
  );
}

/** A row with a distinct value in every column: bigints as numbers (SQLite) or as strings (Postgres). */
function rowOf(metadata: EntityMetadata, bigintsAsStrings: boolean, nulls: boolean): Record<string, unknown> {
  return Object.fromEntries(
    metadata.columns.map((column, index) => {
      if (nulls && column.isNullable) return [column.databaseName, null];
      if (column.type === 'bigint')
        return [column.databaseName, bigintsAsStrings ? String(1000 + index) : 1000 + index];
      if (column.type === 'integer') return [column.databaseName, index];
      return [column.databaseName, `${column.databaseName}-${index}`];
    }),
  );
}

describe('movementFromRow and historyFromRow', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: TRANSFER_ENTITIES });
    await dataSource.initialize();
  });

  afterAll(() => dataSource.destroy());

  it.each([
    ['movement', MovementEntity, movementFromRow],
    ['history', MovementHistoryEntity, historyFromRow],
  ] as const)(
    'build the %s entity TypeORM would, from SQLite and Postgres rows, nulls included',
    (_name, target, fromRow) => {
      const metadata = dataSource.getMetadata(target);
      for (const bigintsAsStrings of [false, true]) {
        for (const nulls of [false, true]) {
          const row = rowOf(metadata, bigintsAsStrings, nulls);
          const entity = fromRow(row) as unknown as Record<string, unknown>;
          expect(entity).toStrictEqual(byMetadata(metadata, row));
          // Keys in the entity's column order, none missing or extra.
          expect(Object.keys(entity)).toEqual(metadata.columns.map((column) => column.propertyName));
        }
      }
    },
  );

  it('read bigints back as numbers on both engines', () => {
    const entity = movementFromRow(rowOf(dataSource.getMetadata(MovementEntity), true, false));
    expect(typeof entity.originId).toBe('number');
    expect(typeof entity.createdAtMs).toBe('number');
  });
});

describe('numberedPlaceholders', () => {
  it('numbers the placeholders as Postgres spells them', () => {
    const sql = 'UPDATE "t" SET "a" = ? WHERE "b" = ? AND "c" IN (?, ?)';
    expect(numberedPlaceholders(sql)).toBe('UPDATE "t" SET "a" = $1 WHERE "b" = $2 AND "c" IN ($3, $4)');
  });
});
