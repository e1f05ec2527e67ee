import { Logger } from '@nestjs/common';

/** Within this long of the last one, a failure is part of the same outage. */
const SAME_OUTAGE_MS = 30_000;

/**
 * Logs a database outage once, with its cause, however many requests meet it: the first failure after 30 s
 * without one opens a new outage (and is logged); the ones in between are counted into the next line.
 */
export class DatabaseOutageLog {
  private readonly logger = new Logger('giro');
  private lastFailureMs = Number.NEGATIVE_INFINITY;
  private unlogged = 0;

  failed(cause: unknown, nowMs = Date.now()): void {
    if (nowMs - this.lastFailureMs < SAME_OUTAGE_MS) {
      this.unlogged += 1;
      this.lastFailureMs = nowMs;
      return;
    }
    const earlier = this.unlogged > 0 ? ` (${this.unlogged} more requests answered 503 in the previous outage)` : '';
    this.logger.warn(`the database is unavailable, admin requests answer 503: ${describe(cause)}${earlier}`);
    this.unlogged = 0;
    this.lastFailureMs = nowMs;
  }
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}
