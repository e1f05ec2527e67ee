import { type DataSource, EntityManager } from 'typeorm';
import type { DecimalAmount } from '../domain';
import { MovementEntity } from './entities';
import {
  AccountQueues1797796800000,
  AmountFromStatusIndex1798315200000,
  DailyClose1797710400000,
  MovementAmountText1796932800000,
  MovementOrderCovering1797105600000,
  MovementSearch1796673600000,
  MovementStatusAmount1796846400000,
  MovementText1796760000000,
  MovementWords1797019200000,
  SearchOnEngineIndexes1797192000000,
  StatementRowsUncheckedKeys1798660800000,
  TextIndexAtCommit1798747200000,
  TextIndexWithoutPositions1797969600000,
  UnknownDebits1798056000000,
} from './migrations';
import { StoreArgumentError } from './persistence.errors';
import { checkedSearch } from './search/checked-search';
import { filteredAndOrdered } from './search/search-query';
import type { ListMovementsOptions } from './store-types';
import {
  OTHER_DESTINATION,
  SAMPLE_DESTINATION,
  SAMPLE_SOURCE,
  sampleIntent as sampleIntentOf,
} from './testing/sample-intent';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine, describeOnSqlite } from './testing/test-engines';

const MINUTE = 60_000;

/** Six movements a minute apart: 1…6 by originId and by creation time, two of them to another party. */
async function searchFixture(engine: Parameters<typeof storeFixture>[0]) {
  const fixture = await storeFixture(engine);
  const rows: [number, Parameters<typeof fixture.record>[1]][] = [
    [1, { amount: '100.00', description: 'Alquiler marzo' }],
    [2, { amount: '2500.50', description: 'honorarios 100%_reales', to: OTHER_DESTINATION }],
    [3, { amount: '2500.50', description: 'Alquiler abril' }],
    [4, { amount: '99999.99', description: 'sueldo' }],
    [5, { amount: '0.01', description: 'prueba', to: OTHER_DESTINATION }],
    [6, { amount: '1000.00', description: 'ALQUILER mayo' }],
  ];
  for (const [originId, options] of rows) {
    await fixture.record(originId, options);
    fixture.clock.advance(MINUTE);
  }
  const search = async (options: Parameters<typeof fixture.store.list>[0]) =>
    (await fixture.store.list(options)).items.map((movement) => movement.originId);
  return { ...fixture, search };
}

describeEachEngine('MovementStore search', (engine) => {
  it('finds by each field, alone and together (AND)', async () => {
    const { search } = await searchFixture(engine);
    const amount = (value: string) => value as DecimalAmount;
    expect(await search({ limit: 10, amountMin: amount('2500.50'), amountMax: amount('2500.50') })).toEqual([2, 3]);
    expect(await search({ limit: 10, amountMin: amount('1000.00') })).toEqual([2, 3, 4, 6]);
    expect(await search({ limit: 10, amountMax: amount('100.00') })).toEqual([1, 5]);
    expect(await search({ limit: 10, toAddress: OTHER_DESTINATION.address })).toEqual([2, 5]);
    expect(await search({ limit: 10, fromAddress: SAMPLE_SOURCE.address })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await search({ limit: 10, fromAddress: OTHER_DESTINATION.address })).toEqual([]);
    // Either party's CUIT: the source's finds all six, a destination's only its own.
    expect(await search({ limit: 10, personId: SAMPLE_SOURCE.personId })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await search({ limit: 10, personId: SAMPLE_DESTINATION.personId })).toEqual([1, 3, 4, 6]);
    expect(await search({ limit: 10, originId: 4 })).toEqual([4]);
    expect(await search({ limit: 10, text: 'alquiler' })).toEqual([1, 3, 6]);
    expect(await search({ limit: 10, text: 'alquiler', amountMin: amount('1000.00') })).toEqual([3, 6]);
    expect(
      await search({ limit: 10, createdFrom: new Date(T0 + MINUTE), createdBefore: new Date(T0 + 3 * MINUTE) }),
    ).toEqual([2, 3]);
    expect(await search({ limit: 10, status: 'PENDING', toAddress: OTHER_DESTINATION.address })).toEqual([2, 5]);
    expect(await search({ limit: 10, status: 'COMPLETED' })).toEqual([]);
    // A status and an amount range: read from their own index (status, amount_cents, …), in the page's order.
    const pendingRange = { status: 'PENDING', amountMin: amount('100.00'), amountMax: amount('2500.50') } as const;
    expect(await search({ limit: 10, ...pendingRange })).toEqual([1, 2, 3, 6]);
    expect(await search({ limit: 10, ...pendingRange, sort: '-createdAt' })).toEqual([6, 3, 2, 1]);
    expect(await search({ limit: 10, ...pendingRange, status: 'COMPLETED' })).toEqual([]);
  });

  it('finds one amount in every status, newest first, and within one status', async () => {
    const { dataSource, search } = await searchFixture(engine);
    const amount = '2500.50' as DecimalAmount;
    const one = { amountMin: amount, amountMax: amount };
    // The same amount in two statuses: without a status it is read one status at a time, then in the page's order.
    await dataSource.query(`UPDATE "giro_movements" SET "status" = 'COMPLETED' WHERE "origin_id" = 2`);
    expect(await search({ limit: 10, sort: '-createdAt', ...one })).toEqual([3, 2]);
    expect(await search({ limit: 1, sort: '-createdAt', ...one })).toEqual([3]);
    expect(await search({ limit: 10, sort: 'createdAt', ...one })).toEqual([2, 3]);
    expect(await search({ limit: 10, status: 'COMPLETED', ...one })).toEqual([2]);
    expect(await search({ limit: 10, status: 'FAILED', ...one })).toEqual([]);
  });

  it("takes the text's wildcards literally", async () => {
    const { search } = await searchFixture(engine);
    expect(await search({ limit: 10, text: '100%_' })).toEqual([2]);
    expect(await search({ limit: 10, text: '%' })).toEqual([2]);
    expect(await search({ limit: 10, text: '_' })).toEqual([2]);
    expect(await search({ limit: 10, text: 'o\\' })).toEqual([]);
  });

  it('finds text of any case, quotes and all, in movements stored before and after the index, and short text', async () => {
    const fixture = await searchFixture(engine);
    await fixture.record(7, { description: 'Factura "B" 0001-00000042' });
    await fixture.record(8, { description: 'Factura "C" 0001-00000043' });
    expect(await fixture.search({ limit: 10, text: 'FACTURA "b"' })).toEqual([7]);
    expect(await fixture.search({ limit: 10, text: '0001-0000004' })).toEqual([7, 8]);
    expect(await fixture.search({ limit: 10, text: '" 0001' })).toEqual([7, 8]);
    expect(await fixture.search({ limit: 10, text: 'rzo' })).toEqual([1]);
    // Under three characters there is no trigram to look up: read in order, found all the same.
    expect(await fixture.search({ limit: 10, text: 'b"' })).toEqual([7]);
    expect(await fixture.search({ limit: 10, text: 'zz' })).toEqual([]);
    expect(await fixture.search({ limit: 10, text: 'alquilera' })).toEqual([]);
    // Several words: found as written, not word by word.
    expect(await fixture.search({ limit: 10, text: 'alquiler marzo' })).toEqual([1]);
    expect(await fixture.search({ limit: 10, text: 'marzo alquiler' })).toEqual([]);
    expect(await fixture.search({ limit: 10, text: 'factura "c" 0001-00000043' })).toEqual([8]);
    // Every trigram of "alquiler" (alq lqu qui uil ile ler), but not the text: not found.
    await fixture.record(9, { description: 'alqu quie uile ler' });
    expect(await fixture.search({ limit: 10, text: 'alquiler' })).toEqual([1, 3, 6]);
    expect(await fixture.search({ limit: 10, text: 'quie uil' })).toEqual([9]);
  });

  it('pages newest first and oldest first with a keyset cursor, unshaken by a movement created meanwhile', async () => {
    const fixture = await searchFixture(engine);
    const first = await fixture.store.list({ limit: 4, sort: '-createdAt' });
    expect(first.items.map((movement) => movement.originId)).toEqual([6, 5, 4, 3]);
    await fixture.record(7);
    const second = await fixture.store.list({ limit: 4, sort: '-createdAt', after: first.nextCursor as string });
    expect(second).toMatchObject({ items: [{ originId: 2 }, { originId: 1 }], nextCursor: null });
    const oldest = await fixture.store.list({ limit: 3, sort: 'createdAt', text: 'a' });
    expect(oldest.items.map((movement) => movement.originId)).toEqual([1, 2, 3]);
    const next = await fixture.store.list({
      limit: 3,
      sort: 'createdAt',
      text: 'a',
      after: oldest.nextCursor as string,
    });
    expect(next.items.map((movement) => movement.originId)).toEqual([5, 6]);
  });

  it('lists scheduled transfers by their moment, earliest first, within a range of moments, page by page', async () => {
    const fixture = await searchFixture(engine);
    const HOUR = 60 * MINUTE;
    // 7…10 created in this order, to be sent in another; 6 of the six above has no moment.
    for (const [originId, hours] of [
      [7, 30],
      [8, 5],
      [9, 30],
      [10, 2],
    ]) {
      const { intent, fingerprint } = sampleIntentOf(originId);
      await fixture.store.recordIntent(intent, fingerprint, {
        sendNow: false,
        scheduled: { executeAtMs: T0 + hours * HOUR },
      });
    }
    const first = await fixture.store.list({ limit: 2, sort: 'executeAt', status: 'SCHEDULED' });
    expect(first.items.map((movement) => movement.originId)).toEqual([10, 8]);
    const second = await fixture.store.list({
      limit: 2,
      sort: 'executeAt',
      status: 'SCHEDULED',
      after: first.nextCursor as string,
    });
    expect(second).toMatchObject({ items: [{ originId: 7 }, { originId: 9 }], nextCursor: null });
    expect(await fixture.search({ limit: 10, sort: 'executeAt' })).toEqual([10, 8, 7, 9]);
    expect(
      await fixture.search({
        limit: 10,
        sort: 'executeAt',
        executeFrom: new Date(T0 + 2 * HOUR),
        executeBefore: new Date(T0 + 30 * HOUR),
      }),
    ).toEqual([10, 8]);
    expect(await fixture.search({ limit: 10, executeFrom: new Date(T0 + 30 * HOUR) })).toEqual([7, 9]);
    await expect(fixture.store.list({ limit: 2, sort: 'executeAt', after: '7' })).rejects.toMatchObject({
      field: 'after',
    });
  });

  it('refuses a bad option naming it, before reading anything', async () => {
    const { store } = await searchFixture(engine);
    const refused = (options: object, field: string) =>
      expect(store.list({ limit: 10, ...options })).rejects.toMatchObject({ name: StoreArgumentError.name, field });
    await refused({ sort: 'amount' }, 'sort');
    await refused({ sort: '-createdAt', after: '7' }, 'after');
    await refused({ after: '1_2' }, 'after');
    await refused({ amountMin: '1,5' }, 'amountMin');
    await refused({ toAddress: '123' }, 'toAddress');
    await refused({ personId: '20-12345678-9' }, 'personId');
    await refused({ text: '' }, 'text');
    await refused({ createdFrom: new Date(Number.NaN) }, 'createdFrom');
  });

  it("fills the search columns and the text index of the movements stored before them, from each one's intent", async () => {
    const fixture = await searchFixture(engine);
    const runner = fixture.dataSource.createQueryRunner();
    try {
      // Down to before the search columns: the later indexes on them go first.
      await new TextIndexAtCommit1798747200000().down(runner);
      await new StatementRowsUncheckedKeys1798660800000().down(runner);
      await new AmountFromStatusIndex1798315200000().down(runner);
      await new UnknownDebits1798056000000().down(runner);
      await new TextIndexWithoutPositions1797969600000().down(runner);
      await new AccountQueues1797796800000().down(runner);
      await new DailyClose1797710400000().down(runner);
      await new SearchOnEngineIndexes1797192000000().down(runner);
      await new MovementOrderCovering1797105600000().down(runner);
      await new MovementWords1797019200000().down(runner);
      await new MovementAmountText1796932800000().down(runner);
      await new MovementStatusAmount1796846400000().down(runner);
      await new MovementText1796760000000().down(runner);
      await new MovementSearch1796673600000().down(runner);
      await new MovementSearch1796673600000().up(runner);
      await new MovementText1796760000000().up(runner);
      await new MovementStatusAmount1796846400000().up(runner);
      await new MovementAmountText1796932800000().up(runner);
      await new MovementWords1797019200000().up(runner);
      await new MovementOrderCovering1797105600000().up(runner);
      await new SearchOnEngineIndexes1797192000000().up(runner);
      await new DailyClose1797710400000().up(runner);
      await new AccountQueues1797796800000().up(runner);
      await new TextIndexWithoutPositions1797969600000().up(runner);
      await new UnknownDebits1798056000000().up(runner);
      await new AmountFromStatusIndex1798315200000().up(runner);
      await new StatementRowsUncheckedKeys1798660800000().up(runner);
      await new TextIndexAtCommit1798747200000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await fixture.search({ limit: 10, text: 'alquiler', toAddress: SAMPLE_DESTINATION.address })).toEqual([
      1, 3, 6,
    ]);
    const alone = await fixture.search({ limit: 10, text: 'alquiler' });
    expect(alone).toEqual(expect.arrayContaining([1, 3, 6]));
    expect(alone).toEqual(await fixture.search({ limit: 10, text: 'alquiler', createdFrom: new Date(0) }));
    expect(
      await fixture.search({ limit: 10, amountMin: '2500.50' as DecimalAmount, personId: OTHER_DESTINATION.personId }),
    ).toEqual([2]);
  });
});

describeOnSqlite('MovementStore search, a common text (SQLite)', (engine) => {
  it('asks the text index for candidates, and reads a text it holds too often along the page’s order', async () => {
    const { dataSource, search } = await searchFixture(engine);
    // The FTS5 index alone is asked for candidates: 5 000 entries of "alquiler" there make it common.
    await dataSource.query(
      `WITH RECURSIVE "n"("i") AS (SELECT 1000 UNION ALL SELECT "i" + 1 FROM "n" WHERE "i" < 5999)
       INSERT INTO "giro_movement_text" ("rowid", "description") SELECT "i", 'alquiler' FROM "n"`,
    );
    const query = jest.spyOn(EntityManager.prototype, 'query');
    const asked = () => query.mock.calls.filter(([sql]) => String(sql).includes('MATCH')).length;
    try {
      // Common: the LIKE along the page's order finds the movements the index's extra entries do not name.
      expect(await search({ limit: 10, text: 'alquiler' })).toEqual([1, 3, 6]);
      expect(await search({ limit: 2, text: 'ALQUILER' })).toEqual([1, 3]);
      expect(await search({ limit: 10, text: 'alquiler', amountMin: '1000.00' as DecimalAmount })).toEqual([3, 6]);
      expect(asked()).toBe(3);
      // Rare: looked up among the index's candidates.
      expect(await search({ limit: 10, text: 'sueldo' })).toEqual([4]);
      expect(asked()).toBe(4);
      // Under three characters there is no trigram to ask for.
      expect(await search({ limit: 10, text: 'su' })).toEqual([4]);
      expect(asked()).toBe(4);
    } finally {
      query.mockRestore();
    }
  });
});

describeOnSqlite('MovementStore search, the indexes SQLite reads without statistics', (engine) => {
  /** SQLite's plan for the keys of a search (as giro deploys it: never analyzed). */
  const planOf = async (dataSource: DataSource, options: ListMovementsOptions) => {
    const query = dataSource.manager.createQueryBuilder(MovementEntity, 'm').select('m.originId');
    filteredAndOrdered(query, checkedSearch(options), undefined);
    const [sql, parameters] = query.getQueryAndParameters();
    return JSON.stringify(await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters));
  };

  it('reads an amount or a range of them from the (status, amount_cents, …) index, with a text along the creation time, with a party from its index', async () => {
    const { dataSource } = await searchFixture(engine);
    const amount = '2500.50' as DecimalAmount;
    const one = await planOf(dataSource, { limit: 50, sort: '-createdAt', amountMin: amount, amountMax: amount });
    expect(one).toContain('COVERING INDEX IDX_giro_movements_status_amount (status=? AND amount_cents=?)');
    const range = await planOf(dataSource, { limit: 50, sort: '-createdAt', amountMin: amount });
    expect(range).toContain('COVERING INDEX IDX_giro_movements_status_amount (status=? AND amount_cents>?)');
    const withText = await planOf(dataSource, { limit: 50, sort: '-createdAt', amountMin: amount, text: 'alquiler' });
    expect(withText).toContain('IDX_giro_movements_created');
    expect(withText).not.toContain('TEMP B-TREE');
    const withParty = await planOf(dataSource, {
      limit: 50,
      sort: '-createdAt',
      amountMin: amount,
      toAddress: OTHER_DESTINATION.address,
    });
    expect(withParty).toContain('IDX_giro_movements_to_address (to_address=?)');
  });
});
