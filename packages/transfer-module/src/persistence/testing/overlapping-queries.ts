import { Client } from 'pg';

// Test support only: pg queues a query sent while its connection runs another (deprecated, an error from pg 9),
// which inside a transaction also leaves the order of its statements to chance.

type Query = (...args: unknown[]) => unknown;

/**
 * Records, until `stop()`, every query a pg connection was asked while it still ran another (its text). SQLite
 * has no such connection: nothing is recorded there.
 */
export function queriesOverlappingOnAConnection(): { queries: string[]; stop(): void } {
  const prototype = Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  const running = new WeakMap<object, number>();
  const queries: string[] = [];
  prototype.query = function (this: object, ...args: unknown[]) {
    const count = running.get(this) ?? 0;
    if (count > 0) queries.push(textOf(args[0]));
    running.set(this, count + 1);
    const done = () => running.set(this, (running.get(this) ?? 1) - 1);
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as Query)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  };
  return {
    queries,
    stop: () => {
      prototype.query = original;
    },
  };
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  return String((query as { text?: unknown } | null)?.text ?? query);
}
