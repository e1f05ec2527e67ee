/** A first-come, first-served lock for async work in one process. */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();
  /** Works holding the lock or waiting for it. */
  private holders = 0;

  async runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.holders += 1;
    await previous;
    try {
      return await work();
    } finally {
      this.holders -= 1;
      release();
    }
  }

  /** Runs `work` as runExclusive does when no work holds the lock or waits for it; undefined (nothing run) otherwise. */
  tryRunExclusive<T>(work: () => Promise<T>): Promise<T> | undefined {
    return this.holders === 0 ? this.runExclusive(work) : undefined;
  }
}
