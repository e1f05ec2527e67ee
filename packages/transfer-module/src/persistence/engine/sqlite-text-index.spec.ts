import type { DataSource } from 'typeorm';
import { MovementEntity } from '../entities';
import { storeFixture } from '../testing/store-fixture';
import { describeOnSqlite } from '../testing/test-engines';
import { engineAdapterFor, transactionsFor } from './engine-adapter';

/** The movements the FTS5 index itself names for a text of three characters or more (the search's LIKE aside). */
const indexed = async (dataSource: DataSource, text: string): Promise<number[]> =>
  (
    await dataSource.query(
      `SELECT "rowid" AS "id" FROM "giro_movement_text" WHERE "giro_movement_text" MATCH ? ORDER BY 1`,
      [`"${text}"`],
    )
  ).map((row: { id: number }) => Number(row.id));

/** FTS5's check of the index, against its external content too: it throws on any difference. */
const integrityCheck = (dataSource: DataSource) =>
  dataSource.query(`INSERT INTO "giro_movement_text" ("giro_movement_text", "rank") VALUES ('integrity-check', 1)`);

describeOnSqlite('the description index, written at the COMMIT (SQLite)', (engine) => {
  it('indexes the movements of a group, forgets a work rolled back to its savepoint, and never indexes a replay twice', async () => {
    const fixture = await storeFixture(engine);
    const { dataSource, store } = fixture;
    const search = async (text: string) => (await store.list({ limit: 20, text })).items.map((m) => m.originId);
    await fixture.record(1, { description: 'plantilla' });
    const template = await dataSource.getRepository(MovementEntity).findOneByOrFail({ originId: 1 });
    const adapter = engineAdapterFor(dataSource);
    // A work of the group that inserts a movement and then fails: rolled back to its savepoint, the others commit.
    const undone = transactionsFor(dataSource).write(async (manager) => {
      const row: MovementEntity = { ...template, originId: 99, description: 'reembolso anulado' };
      await adapter.insertMovement(manager, row, {
        status: row.status,
        atMs: row.createdAtMs,
        source: 'test',
        detail: null,
        actorKeyId: null,
        actorName: null,
      });
      throw new Error('the work fails after its insert');
    });
    // Queued in one turn of the event loop: one group, one COMMIT, the rolled back work among them.
    const created = await Promise.all([
      fixture.record(2, { description: 'Alquiler marzo' }),
      fixture.record(3, { description: 'sueldo' }),
      undone.catch((error: Error) => error.message),
      fixture.record(4, { description: 'Alquiler abril' }),
      // Replays: one of a movement committed before, one of a movement of this same group.
      fixture.record(1, { description: 'plantilla' }),
      fixture.record(2, { description: 'Alquiler marzo' }),
    ]);
    expect(created.map((result) => (typeof result === 'string' ? result : result.created))).toEqual([
      true,
      true,
      'the work fails after its insert',
      true,
      false,
      false,
    ]);
    expect(await search('alquiler')).toEqual([2, 4]);
    expect(await search('sueldo')).toEqual([3]);
    expect(await search('plantilla')).toEqual([1]);
    expect(await search('reembolso')).toEqual([]);
    expect(await indexed(dataSource, 'Alq')).toEqual([2, 4]);
    expect(await indexed(dataSource, 'pla')).toEqual([1]);
    expect(await indexed(dataSource, 'emb')).toEqual([]);
    await expect(integrityCheck(dataSource)).resolves.toBeDefined();
    // A lone transaction indexes its movement too.
    await fixture.record(5, { description: 'honorarios' });
    expect(await search('honorarios')).toEqual([5]);
    await expect(integrityCheck(dataSource)).resolves.toBeDefined();
  });

  it('finds a mismatch between the index and the table: the check above can fail', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1, { description: 'Alquiler marzo' });
    // The same row indexed a second time, as a trigger beside the COMMIT's statement would have done.
    await fixture.dataSource.query(
      `INSERT INTO "giro_movement_text" ("rowid", "description") SELECT "origin_id", "description" FROM "giro_movements"`,
    );
    await expect(integrityCheck(fixture.dataSource)).rejects.toThrow(/malformed|corrupt/i);
  });
});
