/** A first-come, first-served lock for async work in one process, which shared works may pass while it is free. */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();
  /** Exclusive works holding the lock or waiting for it. */
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

  /**
   * Runs `work` now, beside other shared works, when no exclusive work holds the lock or waits for it (then
   * undefined, nothing run); exclusive works asked for meanwhile wait until it is done.
   */
  tryRunShared<T>(work: () => Promise<T>): Promise<T> | undefined {
    if (this.holders > 0) return undefined;
    const running = work();
    const done = running.then(
      () => undefined,
      () => undefined,
    );
    const previous = this.tail;
    this.tail = Promise.all([previous, done]).then(() => undefined);
    return running;
  }
}
