import { MAX_ORIGIN_ID, ManualClock } from '../domain';
import { MovementStore } from './movement-store';
import { MAX_ORIGIN_ID_BATCH, ORIGIN_IDS_PER_MS, OriginIdAllocator } from './origin-id-allocator';
import { StoreArgumentError } from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { describeEachEngine } from './testing/test-engines';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

// One block per call: the database's rules (floor, counter, stored ids) apply to every call.
const PER_CALL = { blockSize: 1 };

const isStrictlyIncreasing = (ids: number[]) => ids.every((id, index) => index === 0 || id > ids[index - 1]);

describeEachEngine('OriginIdAllocator', (engine) => {
  it('hands out consecutive, strictly increasing ids at or above the time floor', async () => {
    const clock = new ManualClock(T0);
    const allocator = new OriginIdAllocator(await (await engine.createDatabase()).connectMigrated(), clock);
    const first = await allocator.allocate(3);
    const second = await allocator.allocate(2);
    const third = await allocator.allocate();
    expect(first[0]).toBe(T0 * ORIGIN_IDS_PER_MS);
    expect([...first, ...second, ...third]).toEqual([0, 1, 2, 3, 4, 5].map((step) => first[0] + step));
  });

  it('follows the clock forward, and never goes back when the clock does', async () => {
    const clock = new ManualClock(T0);
    const allocator = new OriginIdAllocator(await (await engine.createDatabase()).connectMigrated(), clock, PER_CALL);
    const [early] = await allocator.allocate();
    clock.advance(60_000);
    const [later] = await allocator.allocate();
    clock.set(T0 - 3_600_000);
    const [afterClockWentBack] = await allocator.allocate();
    expect(later).toBe((T0 + 60_000) * ORIGIN_IDS_PER_MS);
    expect(afterClockWentBack).toBe(later + 1);
    expect(early).toBeLessThan(later);
  });

  it('stays monotonic across a reopen of the database', async () => {
    const clock = new ManualClock(T0);
    const database = await engine.createDatabase();
    const before = await new OriginIdAllocator(await database.connectMigrated(), clock).allocate(5);
    const reopened = await database.connect();
    const after = await new OriginIdAllocator(reopened, clock).allocate(5);
    expect(isStrictlyIncreasing([...before, ...after])).toBe(true);
  });

  it('skips past an originId the host supplied', async () => {
    const clock = new ManualClock(T0);
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const allocator = new OriginIdAllocator(dataSource, clock, PER_CALL);
    const [mine] = await allocator.allocate();
    const hostId = mine + 10_000;
    const { intent, fingerprint } = sampleIntent(hostId);
    await new MovementStore(dataSource, clock).recordIntent(intent, fingerprint, { sendNow: false });
    expect(await allocator.allocate(2)).toEqual([hostId + 1, hostId + 2]);
  });

  it('stays above every id issued after a restore that lost the counter', async () => {
    const clock = new ManualClock(T0);
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const allocator = new OriginIdAllocator(dataSource, clock);
    const issued = await allocator.allocate(MAX_ORIGIN_ID_BATCH); // more than one millisecond's worth
    await dataSource.query('DELETE FROM "giro_origin_id_counter"'); // the backup predates the counter row
    clock.advance(2); // a restore takes time
    const [next] = await allocator.allocate();
    expect(next).toBeGreaterThan(Math.max(...issued));
  });

  it('stays above stored movements after the counter was rolled back, even if the clock did not move', async () => {
    const clock = new ManualClock(T0);
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const allocator = new OriginIdAllocator(dataSource, clock, PER_CALL);
    const store = new MovementStore(dataSource, clock);
    const issued = await allocator.allocate(3);
    for (const originId of issued) {
      const { intent, fingerprint } = sampleIntent(originId);
      await store.recordIntent(intent, fingerprint, { sendNow: false });
    }
    await dataSource.query('UPDATE "giro_origin_id_counter" SET "next_value" = 1');
    const [next] = await allocator.allocate();
    expect(next).toBe(Math.max(...issued) + 1);
  });

  it('never hands out the same id to concurrent callers on two connections', async () => {
    const clock = new ManualClock(T0);
    const database = await engine.createDatabase();
    const allocators = [
      new OriginIdAllocator(await database.connectMigrated(), clock),
      new OriginIdAllocator(await database.connect(), clock),
    ];
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, index) => allocators[index % 2].allocate(1 + (index % 3))),
    );
    const all = batches.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(batches.reduce((sum, batch) => sum + batch.length, 0));
  });

  it('takes one block per commit and hands its ids out from memory', async () => {
    const clock = new ManualClock(T0);
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const allocator = new OriginIdAllocator(dataSource, clock, { blockSize: 100 });
    const ids: number[] = [];
    for (let call = 0; call < 150; call += 1) ids.push(...(await allocator.allocate()));
    expect(ids).toEqual(ids.map((_, index) => T0 * ORIGIN_IDS_PER_MS + index));
    const [counter] = await dataSource.query(
      'SELECT CAST("next_value" AS TEXT) AS "next" FROM "giro_origin_id_counter"',
    );
    expect(Number(counter.next)).toBe(ids[0] + 200); // two blocks taken, two commits
  });

  it('hands ids out in call order to concurrent callers, also while one of them takes a new block', async () => {
    const clock = new ManualClock(T0);
    const allocator = new OriginIdAllocator(await (await engine.createDatabase()).connectMigrated(), clock, {
      blockSize: 10,
    });
    await allocator.allocate(9); // one id left in the block
    // The first call needs a new block; the second, which one id left would serve, must wait its turn.
    const [needsBlock, fitsLeftover, ...more] = await Promise.all([
      allocator.allocate(2),
      allocator.allocate(1),
      ...Array.from({ length: 12 }, () => allocator.allocate(1)),
    ]);
    const inCallOrder = [...needsBlock, ...fitsLeftover, ...more.flat()];
    expect(isStrictlyIncreasing(inCallOrder)).toBe(true);
    expect(needsBlock[0]).toBe(T0 * ORIGIN_IDS_PER_MS + 10);
  });

  it('gives two processes blocks that never overlap, each starting at or above the time floor', async () => {
    const clock = new ManualClock(T0);
    const database = await engine.createDatabase();
    const allocators = [
      new OriginIdAllocator(await database.connectMigrated(), clock, { blockSize: 10 }),
      new OriginIdAllocator(await database.connect(), clock, { blockSize: 10 }),
    ];
    const perProcess: number[][] = [[], []];
    for (let call = 0; call < 60; call += 1) {
      const which = call % 3 === 0 ? 1 : 0;
      perProcess[which].push(...(await allocators[which].allocate(1 + (call % 2))));
      if (call % 7 === 6) clock.advance(1);
    }
    const all = perProcess.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const ids of perProcess) expect(isStrictlyIncreasing(ids)).toBe(true);
    expect(Math.min(...all)).toBe(T0 * ORIGIN_IDS_PER_MS);
  });

  it('after a restore that lost the counter, a new process starts above every block handed out', async () => {
    const clock = new ManualClock(T0);
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    const before = new OriginIdAllocator(dataSource, clock, { blockSize: 100 });
    const issued = [...(await before.allocate(3)), ...(await before.allocate(5))];
    await dataSource.query('DELETE FROM "giro_origin_id_counter"');
    clock.advance(1); // a restore takes time
    const [next] = await new OriginIdAllocator(await database.connect(), clock).allocate();
    expect(next).toBeGreaterThanOrEqual(issued[0] + 100); // above the whole first block, not just its used ids
  });

  it('refuses a block size outside 1…MAX_ORIGIN_ID_BATCH, naming it', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    for (const blockSize of [0, MAX_ORIGIN_ID_BATCH + 1, 2.5]) {
      expect(() => new OriginIdAllocator(dataSource, new ManualClock(T0), { blockSize })).toThrow(
        expect.objectContaining({ constructor: StoreArgumentError, field: 'blockSize' }),
      );
    }
  });

  it('refuses a count outside 1…MAX_ORIGIN_ID_BATCH, naming it', async () => {
    const allocator = new OriginIdAllocator(
      await (await engine.createDatabase()).connectMigrated(),
      new ManualClock(T0),
    );
    for (const count of [0, MAX_ORIGIN_ID_BATCH + 1, 1.5]) {
      await expect(allocator.allocate(count)).rejects.toMatchObject({
        constructor: StoreArgumentError,
        field: 'count',
        rule: 'range',
      });
    }
  });

  it('refuses to go beyond 2^53−1, and changes nothing', async () => {
    const clock = new ManualClock(T0);
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const { intent, fingerprint } = sampleIntent(MAX_ORIGIN_ID - 1);
    await new MovementStore(dataSource, clock).recordIntent(intent, fingerprint, { sendNow: false });
    const allocator = new OriginIdAllocator(dataSource, clock, PER_CALL);
    await expect(allocator.allocate(2)).rejects.toThrow(/exhausted/);
    expect(await allocator.allocate(1)).toEqual([MAX_ORIGIN_ID]);
    await expect(allocator.allocate(1)).rejects.toThrow(/exhausted/);
  });
});
