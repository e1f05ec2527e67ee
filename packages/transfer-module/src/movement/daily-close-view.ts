import { amountFromCents, businessDayBounds } from '../domain';
import { type AccountCloseFigures, type CloseTally, emptyFigures } from '../persistence';

/** A count of transfers and the sum of their amounts (a decimal string, `"1234.50"`). */
export interface CloseTallyView {
  count: number;
  amount: string;
}

/** What a day's close says of one source account, or of all of them (`totals`); docs/reports.md defines each. */
export interface CloseFiguresView {
  /** Created in the day (their creation time). */
  created: CloseTallyView;
  /** Of those created in the day, the ones handed to the bank (not awaiting an approval or their moment, never rejected or canceled). */
  sent: CloseTallyView;
  /** Became COMPLETED in the day (the time giro recorded the final answer). */
  completed: CloseTallyView;
  /** Became FAILED in the day; `registered`: their cancellation acknowledged by the host, `unregistered`: not yet. */
  failed: CloseTallyView & { registered: CloseTallyView; unregistered: CloseTallyView };
  /** Became REJECTED in the day (an approver refused them, or no one approved them in time). */
  rejected: CloseTallyView;
  /** Became CANCELED in the day (scheduled transfers called off). */
  canceled: CloseTallyView;
  /** Created before the day's end and not final at it; `oldestCreatedAt`: the oldest one's creation (null: none). */
  pendingAtEnd: CloseTallyView & { oldestCreatedAt: string | null };
  /** Of `pendingAtEnd`: waiting for an approval at the day's end. */
  awaitingApprovalAtEnd: CloseTallyView;
  /** Of `pendingAtEnd`: waiting for their scheduled moment at the day's end. */
  scheduledAtEnd: CloseTallyView;
}

export interface AccountCloseView extends CloseFiguresView {
  /** The source account (CBU/CVU). */
  account: string;
}

/** A Buenos Aires day's close: per source account, and totals across them. */
export interface DailyCloseView {
  /** The day, `YYYY-MM-DD` (Buenos Aires). */
  day: string;
  /** When it starts and ends (ISO 8601 UTC; the end excluded). */
  startsAt: string;
  endsAt: string;
  /** The one account asked for; null for every account. */
  account: string | null;
  /** Every source account with a figure in the day, by account. */
  accounts: AccountCloseView[];
  totals: CloseFiguresView;
}

/** The close's view of figures read from the store. */
export function toDailyCloseView(day: string, figures: AccountCloseFigures[], account?: string): DailyCloseView {
  const { start, end } = businessDayBounds(day);
  const accounts = figures.map((one) => ({ account: one.account, ...figuresView(one) }));
  return {
    day,
    startsAt: start.toISOString(),
    endsAt: end.toISOString(),
    account: account ?? null,
    accounts,
    totals: figuresView(sumFigures(figures)),
  };
}

/** The figures of every account added up. */
export function sumFigures(figures: AccountCloseFigures[]): AccountCloseFigures {
  const total = emptyFigures('');
  const add = (a: CloseTally, b: CloseTally): CloseTally => ({ count: a.count + b.count, cents: a.cents + b.cents });
  for (const one of figures) {
    total.created = add(total.created, one.created);
    total.sent = add(total.sent, one.sent);
    total.completed = add(total.completed, one.completed);
    total.failed = add(total.failed, one.failed);
    total.failedRegistered = add(total.failedRegistered, one.failedRegistered);
    total.failedUnregistered = add(total.failedUnregistered, one.failedUnregistered);
    total.rejected = add(total.rejected, one.rejected);
    total.canceled = add(total.canceled, one.canceled);
    const oldest = [total.pendingAtEnd.oldestCreatedAtMs, one.pendingAtEnd.oldestCreatedAtMs].filter(
      (at): at is number => at !== null,
    );
    total.pendingAtEnd = {
      ...add(total.pendingAtEnd, one.pendingAtEnd),
      oldestCreatedAtMs: oldest.length === 0 ? null : Math.min(...oldest),
    };
    total.awaitingApprovalAtEnd = add(total.awaitingApprovalAtEnd, one.awaitingApprovalAtEnd);
    total.scheduledAtEnd = add(total.scheduledAtEnd, one.scheduledAtEnd);
  }
  return total;
}

function figuresView(figures: AccountCloseFigures): CloseFiguresView {
  return {
    created: tallyView(figures.created),
    sent: tallyView(figures.sent),
    completed: tallyView(figures.completed),
    failed: {
      ...tallyView(figures.failed),
      registered: tallyView(figures.failedRegistered),
      unregistered: tallyView(figures.failedUnregistered),
    },
    rejected: tallyView(figures.rejected),
    canceled: tallyView(figures.canceled),
    pendingAtEnd: {
      ...tallyView(figures.pendingAtEnd),
      oldestCreatedAt:
        figures.pendingAtEnd.oldestCreatedAtMs === null
          ? null
          : new Date(figures.pendingAtEnd.oldestCreatedAtMs).toISOString(),
    },
    awaitingApprovalAtEnd: tallyView(figures.awaitingApprovalAtEnd),
    scheduledAtEnd: tallyView(figures.scheduledAtEnd),
  };
}

function tallyView(tally: CloseTally): CloseTallyView {
  return { count: tally.count, amount: amountFromCents(tally.cents) };
}
