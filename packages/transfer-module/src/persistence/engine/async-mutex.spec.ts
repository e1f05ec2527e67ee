import { AsyncMutex } from './async-mutex';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AsyncMutex', () => {
  it('runs one piece of work at a time, in the order they asked', async () => {
    const mutex = new AsyncMutex();
    const events: string[] = [];
    const job = (name: string) =>
      mutex.runExclusive(async () => {
        events.push(`${name} start`);
        await tick();
        await tick();
        events.push(`${name} end`);
        return name;
      });
    const results = await Promise.all([job('a'), job('b'), job('c')]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('releases the lock when the work throws, and passes the error on', async () => {
    const mutex = new AsyncMutex();
    await expect(
      mutex.runExclusive(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(mutex.runExclusive(async () => 'next')).resolves.toBe('next');
  });

  it('runs shared works at once while no exclusive one holds or awaits the lock, and exclusive ones after them', async () => {
    const mutex = new AsyncMutex();
    const events: string[] = [];
    let finishShared!: () => void;
    const sharedGate = new Promise<void>((resolve) => {
      finishShared = resolve;
    });
    const shared = mutex.tryRunShared(async () => {
      events.push('shared start');
      await sharedGate;
      events.push('shared end');
      return 'shared';
    });
    expect(events).toEqual(['shared start']); // started at once
    await expect(mutex.tryRunShared(async () => 'beside')).resolves.toBe('beside');
    const exclusive = mutex.runExclusive(async () => {
      events.push('exclusive');
    });
    let ran = false;
    expect(
      mutex.tryRunShared(async () => {
        ran = true;
      }),
    ).toBeUndefined(); // an exclusive work waits
    finishShared();
    await expect(shared).resolves.toBe('shared');
    await exclusive;
    expect(events).toEqual(['shared start', 'shared end', 'exclusive']);
    expect(ran).toBe(false);
    await expect(mutex.tryRunShared(async () => 'free again')).resolves.toBe('free again');
  });
});
