import { performance } from 'node:perf_hooks';

export interface LoadResult {
  /** Operations that completed without an error. */
  completed: number;
  errors: number;
  /** The first error's message, to say what went wrong. */
  firstError?: string;
  durationMs: number;
  latenciesMs: number[];
}

/**
 * A closed loop: `concurrency` callers, each starting its next operation as soon as its last one ended,
 * until `total` operations have started (or, with `untilMs`, until that much time has passed: the
 * operations under way then still finish). `operation` receives the operation's index (0 … total − 1). `now`
 * reads the time in milliseconds (performance.now; a test's fake clock).
 */
export async function closedLoop(
  concurrency: number,
  total: number,
  operation: (index: number) => Promise<void>,
  options: { untilMs?: number; now?: () => number } = {},
): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const deadline = started + (options.untilMs ?? Number.POSITIVE_INFINITY);
  const caller = async () => {
    while (next < total && now() < deadline) {
      const index = next;
      next += 1;
      const started = now();
      try {
        await operation(index);
        latenciesMs.push(now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, caller));
  const durationMs = now() - started;
  return { completed: latenciesMs.length, errors, ...(firstError && { firstError }), durationMs, latenciesMs };
}
