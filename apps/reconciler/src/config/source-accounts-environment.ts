import { explainSourceAccounts, type SourceAccount } from '@giro/transfer-module';
import { DEMO_PAYER } from '../demo/demo-batch';
import type { ReconcilerEnvironment } from './environment';

const FORMAT = 'comma-separated address:ownerPersonId pairs, e.g. 0000003110000000000175:30712345671';

/**
 * The accounts giro may send from (SOURCE_ACCOUNTS). Required with a real bank: a `from` not among them is refused
 * before anything is stored or sent. Sandbox mode sends from the demo's account unless told otherwise. Problems
 * are pushed to `problems`, naming SOURCE_ACCOUNTS (the accounts themselves are not secrets).
 */
export function sourceAccountsFromEnvironment(
  vars: ReconcilerEnvironment,
  sandbox: boolean,
  problems: string[],
): SourceAccount[] | undefined {
  if (vars.SOURCE_ACCOUNTS === undefined) {
    if (sandbox) return [{ address: DEMO_PAYER.address, ownerPersonId: DEMO_PAYER.owner.personId }];
    problems.push(
      `SOURCE_ACCOUNTS is required when BANK_BASE_URL is set: the accounts giro may send from, as ${FORMAT}`,
    );
    return undefined;
  }
  const accounts: SourceAccount[] = [];
  for (const entry of vars.SOURCE_ACCOUNTS) {
    const [address, ownerPersonId, ...rest] = entry.split(':').map((text) => text.trim());
    if (entry === '' || ownerPersonId === undefined || rest.length > 0) {
      problems.push(`SOURCE_ACCOUNTS must be ${FORMAT}; "${entry}" is not address:ownerPersonId`);
      return undefined;
    }
    accounts.push({ address, ownerPersonId });
  }
  const problem = explainSourceAccounts(accounts);
  if (problem !== undefined) {
    // "[1].address …": the position in the list, counted from 1 for people.
    const named = problem.replace(/^\[(\d+)\]\./, (_match, index: string) => `entry ${Number(index) + 1}: `);
    problems.push(`SOURCE_ACCOUNTS ${named}`);
    return undefined;
  }
  return accounts;
}
