import { isUnsentStatus, MOVEMENT_STATUSES, type MovementStatus, WEBHOOK_EVENT_TYPES } from '@giro/transfer-module';

export type StatusCounts = Record<MovementStatus, number>;

/** Where the display writes: process.stdout, or anything shaped like it. */
export interface DisplayStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR_WIDTH = 30;

/** The demo receiver's count of the webhooks it verified (by event type) and refused. */
export interface WebhookTally {
  received: number;
  refused: number;
  byType: Record<string, number>;
}

/**
 * `webhooks    24 verified — created 10 · status_changed 9 · completed 3 · failed 2`: the events the demo
 * receiver verified with standardwebhooks, by type (`transfer.` left out), and any it refused.
 */
export function webhookLine(tally: WebhookTally): string {
  const order = (type: string) => {
    const index = (WEBHOOK_EVENT_TYPES as readonly string[]).indexOf(type);
    return index < 0 ? WEBHOOK_EVENT_TYPES.length : index;
  };
  const types = Object.entries(tally.byType)
    .sort(([a], [b]) => order(a) - order(b))
    .map(([type, count]) => `${type.replace(/^transfer\./, '')} ${count}`)
    .join(' · ');
  const refused = tally.refused > 0 ? `, ${tally.refused} REFUSED (bad signature)` : '';
  return `  webhooks${String(tally.received).padStart(8)} verified${refused}${types === '' ? '' : ` — ${types}`}`;
}

export function finalCount(counts: StatusCounts): number {
  return counts.COMPLETED + counts.FAILED + counts.REJECTED + counts.CANCELED;
}

/** The statuses worth a row: all but the approval ones, which show only when a transfer is in them. */
function shownStatuses(counts: StatusCounts): MovementStatus[] {
  return MOVEMENT_STATUSES.filter((status) => !isUnsentStatus(status) || counts[status] > 0);
}

/** The live table: one row per status with a bar, then the total. */
export function statusTable(counts: StatusCounts, elapsedMs: number): string[] {
  const total = MOVEMENT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const rows = shownStatuses(counts).map((status) => {
    const count = counts[status];
    const filled = total === 0 ? 0 : Math.round((count / total) * BAR_WIDTH);
    return `  ${status.padEnd(status.length > 12 ? 18 : 12)}${String(count).padStart(4)}  ${'█'.repeat(filled)}${'·'.repeat(BAR_WIDTH - filled)}`;
  });
  const seconds = (elapsedMs / 1000).toFixed(1);
  return [...rows, `  ${finalCount(counts)}/${total} final after ${seconds} s`];
}

/** One line for logs and pipes: `3/10 final after 4.2 s — PENDING 0, CREATED 2, …`. */
export function statusLine(counts: StatusCounts, elapsedMs: number): string {
  const total = MOVEMENT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const parts = shownStatuses(counts)
    .map((status) => `${status} ${counts[status]}`)
    .join(', ');
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

  /** `webhooks`: the demo receiver's tally, shown under the table (on a terminal) or at the end of the line. */
  update(counts: StatusCounts, elapsedMs: number, webhooks?: WebhookTally): void {
    if (this.out.isTTY) {
      const lines = [...statusTable(counts, elapsedMs), ...(webhooks ? [webhookLine(webhooks)] : [])];
      const rewind = this.drawnLines > 0 ? `\x1b[${this.drawnLines}F` : '';
      this.out.write(`${rewind}${lines.map((line) => `\x1b[2K${line}`).join('\n')}\n`);
      this.drawnLines = lines.length;
      return;
    }
    // The elapsed time and the webhooks are left out of the comparison: only a change of status is news (one
    // line per webhook would drown the statuses; the summary has them all).
    const line = statusLine(counts, elapsedMs);
    const key = line.slice(line.indexOf('—'));
    if (key === this.lastLine) return;
    this.lastLine = key;
    this.out.write(`${line}${webhooks ? ` — webhooks verified ${webhooks.received}` : ''}\n`);
  }
}
