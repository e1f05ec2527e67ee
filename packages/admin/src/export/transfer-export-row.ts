import { BUSINESS_TIME_ZONE, type MovementView } from '@giro/transfer-module';
import { neutralizeFormula } from './csv-formula';

/** The columns of `GET /admin/transfers/export.csv`, in order (the header row). */
export const EXPORT_COLUMNS = [
  'originId',
  'createdAt',
  'createdAtBuenosAires',
  'status',
  'statusAt',
  'amount',
  'currencyId',
  'fromAddress',
  'fromCuit',
  'toAddress',
  'toCuit',
  'description',
  'concept',
  'networkId',
  'bankMovementId',
  'completedAt',
  'failedAt',
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

// `sv-SE` writes dates as `YYYY-MM-DD HH:mm:ss`, which spreadsheets read as a date and time in every locale.
const BUENOS_AIRES_TIME = new Intl.DateTimeFormat('sv-SE', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An ISO 8601 instant as the local time of Buenos Aires, for people reading the sheet there. */
export function buenosAiresTime(iso: string): string {
  return BUENOS_AIRES_TIME.format(new Date(iso));
}

/**
 * One movement as a row of the export: times in ISO 8601 UTC, and the creation time in Buenos Aires too;
 * `statusAt` when it took its status; the bank's time of the end (its `completedDatetime`) as `completedAt` for a
 * COMPLETED transfer and as `failedAt` for a FAILED or REJECTED one — never a failure's time under "completed";
 * empty when unknown. Every cell goes through neutralizeFormula: a description is text anyone who sends a
 * transfer chose.
 */
export function exportRowOf(movement: MovementView): Record<ExportColumn, string> {
  const row = exportFieldsOf(movement);
  for (const column of EXPORT_COLUMNS) row[column] = neutralizeFormula(row[column]);
  return row;
}

/** The cells of exportRowOf before neutralizeFormula: a writer that shows them otherwise neutralises them itself. */
export function exportFieldsOf(movement: MovementView): Record<ExportColumn, string> {
  const finishedAt = movement.bank?.completedDatetime ?? '';
  return {
    originId: String(movement.originId),
    createdAt: movement.createdAt,
    createdAtBuenosAires: buenosAiresTime(movement.createdAt),
    status: movement.status,
    statusAt: movement.history.at(-1)?.at ?? movement.createdAt,
    amount: movement.amount,
    currencyId: movement.currencyId,
    fromAddress: movement.from.address,
    fromCuit: movement.from.owner.personId,
    toAddress: movement.to.address,
    toCuit: movement.to.owner.personId,
    description: movement.description,
    concept: movement.concept,
    networkId: movement.networkId ?? '',
    bankMovementId: movement.bankMovementId ?? '',
    completedAt: movement.status === 'COMPLETED' ? finishedAt : '',
    failedAt: movement.status === 'FAILED' || movement.status === 'REJECTED' ? finishedAt : '',
  };
}
