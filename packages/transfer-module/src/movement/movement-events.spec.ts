import type { LoggerService } from '@nestjs/common';
import { storeFixture } from '../persistence/testing/store-fixture';
import { describeOnSqlite } from '../persistence/testing/test-engines';
import { MovementEvents, TRANSFER_EVENTS } from './movement-events';

describeOnSqlite('MovementEvents', (engine) => {
  it('logs a failing listener with the originId as a field of the line, and keeps going', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(4242);
    const lines: unknown[] = [];
    const logger: LoggerService = { log: () => {}, warn: () => {}, error: (line: unknown) => void lines.push(line) };
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
