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

  it('runs a work tried while the lock is free, and runs none while it is held or awaited', async () => {
    const mutex = new AsyncMutex();
    await expect(mutex.tryRunExclusive(async () => 'free')).resolves.toBe('free');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = mutex.runExclusive(() => gate);
    const waiting = mutex.runExclusive(async () => 'waited');
    let ran = false;
    expect(
      mutex.tryRunExclusive(async () => {
        ran = true;
      }),
    ).toBeUndefined();
    release();
    await held;
    expect(mutex.tryRunExclusive(async () => undefined)).toBeUndefined(); // the waiting work holds it now
    await expect(waiting).resolves.toBe('waited');
    expect(ran).toBe(false);
    await expect(mutex.tryRunExclusive(async () => 'free again')).resolves.toBe('free again');
  });
});
