import { MOVEMENT_STATUSES, type MovementStatus } from '@giro/transfer-module';

export type StatusCounts = Record<MovementStatus, number>;

/** Where the display writes: process.stdout, or anything shaped like it. */
export interface DisplayStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR_WIDTH = 30;

export function finalCount(counts: StatusCounts): number {
  return counts.COMPLETED + counts.FAILED;
}

/** The live table: one row per status with a bar, then the total. */
export function statusTable(counts: StatusCounts, elapsedMs: number): string[] {
  const total = MOVEMENT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const rows = MOVEMENT_STATUSES.map((status) => {
    const count = counts[status];
    const filled = total === 0 ? 0 : Math.round((count / total) * BAR_WIDTH);
    return `  ${status.padEnd(12)}${String(count).padStart(4)}  ${'█'.repeat(filled)}${'·'.repeat(BAR_WIDTH - filled)}`;
  });
  const seconds = (elapsedMs / 1000).toFixed(1);
  return [...rows, `  ${finalCount(counts)}/${total} final after ${seconds} s`];
}

/** One line for logs and pipes: `3/10 final after 4.2 s — PENDING 0, CREATED 2, …`. */
export function statusLine(counts: StatusCounts, elapsedMs: number): string {
  const total = MOVEMENT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const parts = MOVEMENT_STATUSES.map((status) => `${status} ${counts[status]}`).join(', ');
  return `${finalCount(counts)}/${total} final after ${(elapsedMs / 1000).toFixed(1)} s — ${parts}`;
}

/**
 * Shows the batch moving. On a terminal the table is redrawn in place (cursor up, clear line); anywhere
 * else (a pipe, a CI log) a plain line is printed each time the counts change.
 */
export class ProgressDisplay {
  private drawnLines = 0;
  private lastLine: string | undefined;

  constructor(private readonly out: DisplayStream) {}

  update(counts: StatusCounts, elapsedMs: number): void {
    if (this.out.isTTY) {
      const lines = statusTable(counts, elapsedMs);
      const rewind = this.drawnLines > 0 ? `\x1b[${this.drawnLines}F` : '';
      this.out.write(`${rewind}${lines.map((line) => `\x1b[2K${line}`).join('\n')}\n`);
      this.drawnLines = lines.length;
      return;
    }
    // The elapsed time is left out of the comparison: only a change of counts is news.
    const line = statusLine(counts, elapsedMs);
    const key = line.slice(line.indexOf('—'));
    if (key === this.lastLine) return;
    this.lastLine = key;
    this.out.write(`${line}\n`);
  }
}
