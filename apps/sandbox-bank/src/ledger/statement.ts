import { businessDayBounds } from '@giro/transfer-module';
import type { Ledger } from './ledger';

/** The header of the sandbox's statement: giro's default statement columns. */
export const STATEMENT_HEADER = 'date,amount,reference,description';

/**
 * The bank's statement of a day (Buenos Aires) as CSV in giro's default format: one debit per movement that
 * reached COMPLETED that day (by now), in processing order, from `account` when one is given — its amount
 * negative, its reference the movement's networkId. FAILED movements took no money and are not in it.
 */
export function statementCsv(ledger: Ledger, day: string, nowMs: number, account?: string): string {
  const { start, end } = businessDayBounds(day);
  const lines = [STATEMENT_HEADER];
  for (const movement of ledger.movements()) {
    if (account !== undefined && movement.transfer.fromAddress !== account) continue;
    const last = movement.stateChanges().at(-1);
    if (last?.status !== 'COMPLETED' || last.atMs > nowMs) continue;
    if (last.atMs < start.getTime() || last.atMs >= end.getTime()) continue;
    const { networkId } = ledger.idsOf(movement);
    lines.push(`${day},-${movement.transfer.amount},${networkId},${quoted(movement.transfer.description)}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
