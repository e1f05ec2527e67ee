import type { MovementView } from '@giro/transfer-module';
import { neutralizeFormula } from './csv-formula';
import { EXPORT_COLUMNS, type ExportColumn, exportFieldsOf } from './transfer-export-row';

/** The header of the exports for Excel in Spanish (the CSV with `;` and the .xlsx), column by column. */
export const SPANISH_EXPORT_HEADERS: Record<ExportColumn, string> = {
  originId: 'ID origen',
  createdAt: 'Creada (UTC)',
  createdAtBuenosAires: 'Creada (Buenos Aires)',
  status: 'Estado',
  statusAt: 'Estado desde (UTC)',
  amount: 'Importe',
  currencyId: 'Moneda',
  fromAddress: 'CBU origen',
  fromCuit: 'CUIT origen',
  toAddress: 'CBU destino',
  toCuit: 'CUIT destino',
  description: 'Descripción',
  concept: 'Concepto',
  networkId: 'ID de red',
  bankMovementId: 'ID de movimiento del banco',
  completedAt: 'Completada (banco, UTC)',
  failedAt: 'Fallida (banco, UTC)',
};

/**
 * A row of the CSV for Excel in Spanish: the amount with a decimal comma and no grouping (`1234,50`, which Excel
 * in es-AR reads as a number), the Buenos Aires time as `dd/mm/aaaa hh:mm:ss` (which it reads as a date); every
 * cell neutralised as in the CSV for programs.
 */
export function spanishCsvRowOf(movement: MovementView): string[] {
  const fields = exportFieldsOf(movement);
  fields.amount = fields.amount.replace('.', ',');
  fields.createdAtBuenosAires = dayFirst(fields.createdAtBuenosAires);
  return EXPORT_COLUMNS.map((column) => neutralizeFormula(fields[column]));
}

/** `2026-11-23 23:30:00` as `23/11/2026 23:30:00`. */
export function dayFirst(time: string): string {
  const [day, clock] = time.split(' ');
  return `${day.split('-').reverse().join('/')} ${clock}`;
}
