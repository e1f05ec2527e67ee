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
});
