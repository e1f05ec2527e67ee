import type { SandboxCounters } from '@giro/sandbox-bank';

/** How long the sandbox is given to process requests still on their way when a run's workers have ended. */
const SETTLE_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

export interface ProcessedOnceOptions {
  /**
   * Transfers the workers ended without an answer (their `errors`): each may never have reached the sandbox (a
   * connection it closed as the request went out), so the sandbox may be short of that many, never more.
   */
  unanswered: number;
  /** Reads the time in ms and waits (the real ones by default; a spec's fake clock). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

/** What the sandbox processed of a run's transfers, once it stopped short or reached them all. */
export interface ProcessedOnce {
  processed: number;
  /** Transfers the sandbox never processed: at most the unanswered ones. */
  missing: number;
}

/**
 * Every transfer of a run reached the sandbox exactly once, or the figures would flatter a broken system. The
 * workers have ended, but on a busy machine the sandbox may still be reading the last requests: its counters are
 * read until they reach `expected` or stop moving for the timeout. Throws when a transfer was processed twice,
 * more than `expected` were, or fewer than `expected` minus the transfers the workers ended without an answer.
 */
export async function awaitProcessedOnce(
  counters: () => Promise<SandboxCounters>,
  expected: number,
  options: ProcessedOnceOptions,
): Promise<ProcessedOnce> {
  const now = options.now ?? (() => Date.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = options.timeoutMs ?? SETTLE_TIMEOUT_MS;
  let read = await counters();
  let movedAt = now();
  while (read.processed < expected && read.processedTwice === 0 && now() - movedAt < timeoutMs) {
    await sleep(POLL_MS);
    const next = await counters();
    if (next.processed !== read.processed) movedAt = now();
    read = next;
  }
  const missing = expected - read.processed;
  if (read.processedTwice !== 0 || missing < 0 || missing > options.unanswered) {
    throw new Error(
      `the sandbox processed ${read.processed} transfers (${read.processedTwice} twice, ${read.duplicates} repeated originIds answered), expected ${expected}${options.unanswered > 0 ? ` less at most the ${options.unanswered} the workers ended without an answer` : ''}`,
    );
  }
  return { processed: read.processed, missing };
}
