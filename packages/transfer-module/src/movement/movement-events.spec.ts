import type { LoggerService } from '@nestjs/common';
import { storeFixture } from '../persistence/testing/store-fixture';
import { describeEachEngine, describeOnSqlite } from '../persistence/testing/test-engines';
import { MovementEvents, type MovementStatusChangedEvent, TRANSFER_EVENTS } from './movement-events';
import { toMovementView } from './movement-view';

const silent: LoggerService = { log: () => {}, warn: () => {}, error: () => {} };

describeOnSqlite('MovementEvents', (engine) => {
  it('logs a failing listener with the originId as a field of the line, and keeps going', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(4242);
    const lines: unknown[] = [];
    const logger: LoggerService = { ...silent, error: (line: unknown) => void lines.push(line) };
    const emitted: string[] = [];
    const sink = {
      emit(event: string) {
        emitted.push(event);
        if (event === TRANSFER_EVENTS.statusChanged) throw new Error('listener bug');
      },
    };
    const events = new MovementEvents(sink, fixture.store, logger);

    await events.publish(4242, { kind: 'changed', from: 'IN_PROGRESS', to: 'COMPLETED', source: 'query' });

    expect(lines).toEqual([
      { originId: 4242, msg: expect.stringMatching(/^originId 4242: a listener of .* failed: .*listener bug/) },
    ]);
    // The failure of one listener does not stop the other events.
    expect(emitted).toEqual([TRANSFER_EVENTS.statusChanged, TRANSFER_EVENTS.completed]);
    await fixture.dataSource.destroy();
  });
});

describeEachEngine('MovementEvents.publishMany', (engine) => {
  it('reads the movements of a batch in the same few statements however many, and emits in the order given', async () => {
    const fixture = await storeFixture(engine);
    for (let originId = 1; originId <= 40; originId += 1) await fixture.record(originId);
    const emitted: { event: string; payload: MovementStatusChangedEvent }[] = [];
    const sink = { emit: (event: string, payload: unknown) => emitted.push({ event, payload: payload as never }) };
    const events = new MovementEvents(sink, fixture.store, silent);
    const released = { kind: 'changed', from: 'SCHEDULED', to: 'PENDING', source: 'release' } as const;
    const statementsFor = async (originIds: number[]) => {
      const log = jest.spyOn(fixture.dataSource.logger, 'logQuery');
      try {
        await events.publishMany(originIds.map((originId) => ({ originId, announcement: released })));
        return log.mock.calls.length;
      } finally {
        log.mockRestore();
      }
    };

    const few = await statementsFor([3, 1, 2]);
    expect(emitted.map(({ payload }) => payload.originId)).toEqual([3, 1, 2]);
    emitted.length = 0;
    // 40 and one unknown: the unknown is left out, the rest in the order given.
    const many = await statementsFor([...Array.from({ length: 40 }, (_, index) => 40 - index), 999]);

    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(8);
    expect(emitted.map(({ payload }) => payload.originId)).toEqual(
      Array.from({ length: 40 }, (_, index) => 40 - index),
    );
    expect(new Set(emitted.map(({ event }) => event))).toEqual(new Set([TRANSFER_EVENTS.statusChanged]));
    const stored = await fixture.store.findByOriginId(7);
    expect(emitted.find(({ payload }) => payload.originId === 7)?.payload).toEqual({
      originId: 7,
      from: 'SCHEDULED',
      to: 'PENDING',
      source: 'release',
      movement: toMovementView(stored as NonNullable<typeof stored>),
    });
    await fixture.dataSource.destroy();
  });
});
