import type { CloseFiguresView, CloseTallyView, DailyCloseView } from '@giro/transfer-module';
import { neutralizeFormula } from '../export/csv-formula';

/** The figures a row of the close's files holds, in order, each a count and an amount (docs/reports.md). */
const TALLIES = [
  'created',
  'sent',
  'completed',
  'failed',
  'failedRegistered',
  'failedUnregistered',
  'rejected',
  'canceled',
  'pendingAtEnd',
  'awaitingApprovalAtEnd',
  'scheduledAtEnd',
] as const;
type Tally = (typeof TALLIES)[number];

/** The columns of the close's CSV and .xlsx: the day, the account (`total` on the last row), each figure's count and amount, and the oldest pending transfer's creation. */
export const DAILY_CLOSE_COLUMNS = [
  'day',
  'account',
  ...TALLIES.flatMap((tally) => [`${tally}Count`, `${tally}Amount`]),
  'pendingAtEndOldestCreatedAt',
] as const;
export type DailyCloseColumn = (typeof DAILY_CLOSE_COLUMNS)[number];

const SPANISH_TALLIES: Record<Tally, string> = {
  created: 'Creadas',
  sent: 'Enviadas',
  completed: 'Completadas',
  failed: 'Fallidas',
  failedRegistered: 'Fallidas registradas',
  failedUnregistered: 'Fallidas sin registrar',
  rejected: 'Rechazadas',
  canceled: 'Canceladas',
  pendingAtEnd: 'Pendientes al cierre',
  awaitingApprovalAtEnd: 'Esperando aprobación al cierre',
  scheduledAtEnd: 'Programadas al cierre',
};

/** The header for Excel in Spanish (the CSV with `;` and the .xlsx), column by column. */
export const SPANISH_DAILY_CLOSE_HEADERS = Object.fromEntries([
  ['day', 'Día'],
  ['account', 'Cuenta origen'],
  ...TALLIES.flatMap((tally) => [
    [`${tally}Count`, `${SPANISH_TALLIES[tally]} (cantidad)`],
    [`${tally}Amount`, `${SPANISH_TALLIES[tally]} (importe)`],
  ]),
  ['pendingAtEndOldestCreatedAt', 'Pendiente más antigua (creada, UTC)'],
]) as Record<DailyCloseColumn, string>;

/** Every account's row, then the totals' (account `total`, `Total` in Spanish): each cell as text, amounts with a decimal point. */
export function dailyCloseRows(close: DailyCloseView, options: { spanish?: boolean } = {}): string[][] {
  const rows = close.accounts.map((account) => rowOf(close.day, account.account, account));
  rows.push(rowOf(close.day, options.spanish ? 'Total' : 'total', close.totals));
  return rows;
}

/** The same rows for Excel in Spanish: amounts with a decimal comma (`1234,50`), every cell neutralised. */
export function spanishDailyCloseRows(close: DailyCloseView): string[][] {
  const amounts = new Set(DAILY_CLOSE_COLUMNS.flatMap((column, index) => (column.endsWith('Amount') ? [index] : [])));
  return dailyCloseRows(close, { spanish: true }).map((row) =>
    row.map((cell, index) => neutralizeFormula(amounts.has(index) ? cell.replace('.', ',') : cell)),
  );
}

function rowOf(day: string, account: string, figures: CloseFiguresView): string[] {
  const tallies: Record<Tally, CloseTallyView> = {
    created: figures.created,
    sent: figures.sent,
    completed: figures.completed,
    failed: figures.failed,
    failedRegistered: figures.failed.registered,
    failedUnregistered: figures.failed.unregistered,
    rejected: figures.rejected,
    canceled: figures.canceled,
    pendingAtEnd: figures.pendingAtEnd,
    awaitingApprovalAtEnd: figures.awaitingApprovalAtEnd,
    scheduledAtEnd: figures.scheduledAtEnd,
  };
  return [
    day,
    account,
    ...TALLIES.flatMap((tally) => [String(tallies[tally].count), tallies[tally].amount]),
    figures.pendingAtEnd.oldestCreatedAt ?? '',
  ];
}
