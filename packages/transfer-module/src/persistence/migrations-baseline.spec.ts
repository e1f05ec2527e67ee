import { DataSource, type DataSourceOptions } from 'typeorm';
import { engineOf } from './engine/database-engine';
import {
  TRANSFER_MIGRATION_STEPS,
  TRANSFER_MIGRATIONS,
  TRANSFER_MIGRATIONS_SINCE_BASELINE,
  TransferSchemaBaseline1795291100000,
} from './migrations';
import { runTransferMigrations } from './run-transfer-migrations';
import { describeEachEngine } from './testing/test-engines';

const BASELINE = TransferSchemaBaseline1795291100000.name;
const STEPS = TRANSFER_MIGRATION_STEPS.map((step) => step.name);
const SINCE = TRANSFER_MIGRATIONS_SINCE_BASELINE.map((step) => step.name);

/** What an earlier build did: its own migrations (the steps up to `last`) on this database. */
async function migrateAsAnEarlierBuild(dataSource: DataSource, last: string): Promise<void> {
  const steps = TRANSFER_MIGRATION_STEPS.slice(0, STEPS.indexOf(last) + 1);
  const options = { ...dataSource.options, migrations: steps } as DataSourceOptions;
  const earlier = await new DataSource(options).initialize();
  try {
    await earlier.runMigrations();
  } finally {
    await earlier.destroy();
  }
}

/**
 * The schema as the engine describes it, giro's tables only: SQLite's statements in sqlite_master (in their order:
 * SQLite breaks ties between indexes by it); on Postgres the columns, indexes, constraints, triggers, functions,
 * sequences and table options.
 */
async function schemaOf(dataSource: DataSource): Promise<unknown> {
  if (engineOf(dataSource) === 'sqlite') {
    return dataSource.query(
      `SELECT "type", "name", "tbl_name", "sql" FROM sqlite_master WHERE "name" NOT IN ('migrations', 'sqlite_sequence')
       AND "tbl_name" <> 'migrations' ORDER BY "rowid"`,
    );
  }
  const giro = `LIKE 'giro\\_%'`;
  return {
    columns: await dataSource.query(
      `SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name ${giro} ORDER BY 1, 3`,
    ),
    indexes: await dataSource.query(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename ${giro} ORDER BY 1, 2`,
    ),
    constraints: await dataSource.query(
      `SELECT c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid) AS definition FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = current_schema()::regnamespace AND c.relname ${giro}
       ORDER BY 1, 2`,
    ),
    triggers: await dataSource.query(
      `SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace AND c.relname ${giro} ORDER BY 1, 2`,
    ),
    functions: await dataSource.query(
      `SELECT proname, prosrc FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname ${giro} ORDER BY 1`,
    ),
    sequences: await dataSource.query(
      `SELECT sequence_name, data_type, start_value, increment FROM information_schema.sequences
       WHERE sequence_schema = current_schema() AND sequence_name ${giro} ORDER BY 1`,
    ),
    tableOptions: await dataSource.query(
      `SELECT relname, reloptions FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname ${giro}
       AND relkind = 'r' ORDER BY 1`,
    ),
  };
}

describeEachEngine('one schema, two roads: the baseline and the steps', (engine) => {
  it('gives a fresh database the schema the steps give, and records every step as run', async () => {
    const fresh = await (await engine.createDatabase()).connect();
    expect(await runTransferMigrations(fresh)).toEqual(TRANSFER_MIGRATIONS.map((migration) => migration.name));
    expect(TRANSFER_MIGRATIONS.map((migration) => migration.name)).toEqual([BASELINE, ...STEPS, ...SINCE]);
    const byTheSteps = await (await engine.createDatabase()).connect();
    await migrateAsAnEarlierBuild(byTheSteps, STEPS[STEPS.length - 1]);
    expect(await runTransferMigrations(byTheSteps)).toEqual([BASELINE, ...SINCE]);
    expect(await schemaOf(fresh)).toEqual(await schemaOf(byTheSteps));
    // The same records on both roads but the baseline's, first on the fresh one.
    const recorded = async (dataSource: DataSource) =>
      (await dataSource.query('SELECT "name" FROM "migrations" ORDER BY "id"')).map(
        (row: { name: string }) => row.name,
      );
    expect(await recorded(fresh)).toEqual([BASELINE, ...STEPS, ...SINCE]);
    expect(await recorded(byTheSteps)).toEqual([...STEPS, BASELINE, ...SINCE]);
  });

  it.each(['CreateTransferSchema1795291200000', 'Replicas1796587200000'])(
    'upgrades a database an earlier build made up to %s through the steps after it, to the same schema',
    async (last) => {
      const upgraded = await (await engine.createDatabase()).connect();
      await migrateAsAnEarlierBuild(upgraded, last);
      const ran = await runTransferMigrations(upgraded);
      expect(ran).toEqual([BASELINE, ...STEPS.slice(STEPS.indexOf(last) + 1), ...SINCE]);
      const fresh = await (await engine.createDatabase()).connectMigrated();
      expect(await schemaOf(upgraded)).toEqual(await schemaOf(fresh));
      expect(await runTransferMigrations(upgraded)).toEqual([]);
    },
  );

  it('upgrades a database made by the steps to the end, running the baseline as nothing', async () => {
    const dataSource = await (await engine.createDatabase()).connect();
    await migrateAsAnEarlierBuild(dataSource, STEPS[STEPS.length - 1]);
    expect(await runTransferMigrations(dataSource)).toEqual([BASELINE, ...SINCE]);
    const fresh = await (await engine.createDatabase()).connectMigrated();
    expect(await schemaOf(dataSource)).toEqual(await schemaOf(fresh));
  });
});
