import { Dispatcher } from 'undici';

/**
 * A dispatcher whose connection pool can be replaced while it is used: each request goes to the pool current
 * when it is dispatched, and a replaced pool is closed once its requests in flight are done (undici's `close()`
 * waits for them). The interceptors composed onto it (token, signature) are composed once and stay.
 */
export class SwappableDispatcher extends Dispatcher {
  #current: Dispatcher;
  readonly #retiring = new Set<Promise<void>>();

  constructor(initial: Dispatcher) {
    super();
    this.#current = initial;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.#current.dispatch(options, handler);
  }

  /**
   * New requests use `next` from now on; the previous pool finishes its requests in flight, then closes (`close()`
   * waits for that too).
   */
  replace(next: Dispatcher): void {
    const previous = this.#current;
    this.#current = next;
    // A pool that fails to close has nothing left to send: its failure is no caller's.
    const retired = previous.close().catch(() => undefined);
    this.#retiring.add(retired);
    retired.finally(() => this.#retiring.delete(retired));
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closing = Promise.all([this.#current.close(), ...this.#retiring]).then(() => undefined);
    if (callback === undefined) return closing;
    closing.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(errorOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const error = typeof errorOrCallback === 'function' ? null : (errorOrCallback ?? null);
    const done = typeof errorOrCallback === 'function' ? errorOrCallback : callback;
    const destroying = this.#current.destroy(error);
    if (done === undefined) return destroying;
    destroying.then(done, done);
  }
}
