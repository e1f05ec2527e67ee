import { type LockWaitClock, MAX_LOCK_PAUSE_MS, type SqliteBusyTimeout, SqliteLockWait } from './sqlite-lock-wait';

const BUSY_TIMEOUT_MS = 400;

/** A connection whose busy_timeout pragma is a number it keeps. */
class FakeConnection implements SqliteBusyTimeout {
  busyTimeoutMs = BUSY_TIMEOUT_MS;

  pragma(source: string, options?: { simple: boolean }): unknown {
    if (options?.simple) return this.busyTimeoutMs;
    const set = /^busy_timeout = (\d+)$/.exec(source);
    if (!set) throw new Error(`unexpected pragma ${source}`);
    this.busyTimeoutMs = Number(set[1]);
    return undefined;
  }
}

/** A clock that moves only when the wait pauses, recording each pause. */
function fakeClock(): LockWaitClock & { pauses: number[] } {
  let nowMs = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => nowMs,
    sleep: async (ms) => {
      pauses.push(ms);
      nowMs += ms;
    },
  };
}

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A BEGIN IMMEDIATE that meets the other writer's lock `busyTries` times, then takes it. */
function beginner(connection: FakeConnection, busyTries: number) {
  const tries: { busyTimeoutMs: number }[] = [];
  const begin = async () => {
    tries.push({ busyTimeoutMs: connection.busyTimeoutMs });
    if (tries.length <= busyTries) throw busy();
  };
  return { tries, begin };
}

describe('SqliteLockWait', () => {
  it('tries again after pauses of 1, 2, 4… up to 50 ms until busy_timeout has passed, then gives SQLITE_BUSY back', async () => {
    const clock = fakeClock();
    const wait = new SqliteLockWait(clock);
    const connection = new FakeConnection();
    const { tries, begin } = beginner(connection, Number.POSITIVE_INFINITY);

    await expect(wait.begin(connection, begin)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });

    expect(clock.pauses).toEqual([1, 2, 4, 8, 16, 32, 50, 50, 50, 50, 50, 50, 37]);
    expect(Math.max(...clock.pauses)).toBe(MAX_LOCK_PAUSE_MS);
    expect(clock.now()).toBe(BUSY_TIMEOUT_MS);
    // Each try is made with the driver's own wait off (it would stop the process), and the connection keeps its
    // busy_timeout for the statements outside giro's transactions.
    expect(tries).toHaveLength(clock.pauses.length + 1);
    expect(tries.every((attempt) => attempt.busyTimeoutMs === 0)).toBe(true);
    expect(connection.busyTimeoutMs).toBe(BUSY_TIMEOUT_MS);
    expect(wait.heldElsewhere).toBe(true);
  });

  it('takes the lock at the first try after the other writer let it go', async () => {
    const clock = fakeClock();
    const wait = new SqliteLockWait(clock);
    const connection = new FakeConnection();
    const { tries, begin } = beginner(connection, 3);

    await wait.begin(connection, begin);

    expect(tries).toHaveLength(4);
    expect(clock.pauses).toEqual([1, 2, 4]);
    expect(wait.heldElsewhere).toBe(false);
    expect(connection.busyTimeoutMs).toBe(BUSY_TIMEOUT_MS);
  });

  it('once a wait ran out, tries the next lock once and gives it up at once, until a try takes it', async () => {
    const clock = fakeClock();
    const wait = new SqliteLockWait(clock);
    const connection = new FakeConnection();
    await expect(wait.begin(connection, beginner(connection, Number.POSITIVE_INFINITY).begin)).rejects.toThrow();
    const waited = clock.pauses.length;

    const refused = beginner(connection, Number.POSITIVE_INFINITY);
    await expect(wait.begin(connection, refused.begin)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(refused.tries).toHaveLength(1);
    expect(clock.pauses).toHaveLength(waited);

    await wait.begin(connection, beginner(connection, 0).begin);
    expect(wait.heldElsewhere).toBe(false);

    // The lock taken again, the next one is waited for again.
    const later = beginner(connection, 2);
    await wait.begin(connection, later.begin);
    expect(later.tries).toHaveLength(3);
    expect(clock.pauses.slice(waited)).toEqual([1, 2]);
  });

  it('gives any other error back at once, without a pause', async () => {
    const clock = fakeClock();
    const wait = new SqliteLockWait(clock);
    const connection = new FakeConnection();
    const failing = async () => {
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    };

    await expect(wait.begin(connection, failing)).rejects.toMatchObject({ code: 'SQLITE_IOERR' });
    expect(clock.pauses).toEqual([]);
    expect(wait.heldElsewhere).toBe(false);
    expect(connection.busyTimeoutMs).toBe(BUSY_TIMEOUT_MS);
  });
});
