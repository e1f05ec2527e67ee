import { explainCbuCvu, isCvu } from './cbu-cvu';
import { explainCuit } from './cuit';
import type { TransferParty } from './transfer-intent';
import type { Violation } from './violation';

// The accounts an entity may send from (docs/bank-api.md, "What the service does"): its own accounts. Sending
// from the virtual sub-accounts of its clients is reserved to payment service providers registered with the
// central bank, so a CVU that is not one of the entity's own is refused with that reason.

/** One of the entity's own accounts: its CBU or CVU and the CUIT of its holder. */
export interface SourceAccount {
  address: string;
  ownerPersonId: string;
}

/** The source accounts by address (address → holder's CUIT), checked. */
export type SourceAccountIndex = ReadonlyMap<string, string>;

/** Why `accounts` is not a list of source accounts (valid CBU/CVU and CUIT, each address once); undefined when it is. */
export function explainSourceAccounts(accounts: unknown): string | undefined {
  if (!Array.isArray(accounts)) return 'must be a list of { address, ownerPersonId }';
  const seen = new Set<string>();
  for (const [index, account] of accounts.entries()) {
    const { address, ownerPersonId } = (account ?? {}) as Partial<SourceAccount>;
    if (typeof address !== 'string') return `[${index}].address must be a CBU or CVU (22 digits)`;
    const addressProblem = explainCbuCvu(address);
    if (addressProblem !== undefined) return `[${index}].address ${addressProblem}`;
    if (typeof ownerPersonId !== 'string') return `[${index}].ownerPersonId must be a CUIT (11 digits)`;
    const ownerProblem = explainCuit(ownerPersonId);
    if (ownerProblem !== undefined) return `[${index}].ownerPersonId ${ownerProblem}`;
    if (seen.has(address)) return `[${index}].address ${address} is listed twice`;
    seen.add(address);
  }
  return undefined;
}

/** The index of checked source accounts. */
export function indexSourceAccounts(accounts: readonly SourceAccount[]): SourceAccountIndex {
  return new Map(accounts.map((account) => [account.address, account.ownerPersonId]));
}

/**
 * Why a transfer may not be sent from `from`: not one of the source accounts (`from.address`), or one whose
 * holder is someone else (`from.owner.personId`). Undefined when it may.
 */
export function explainSourceAccount(from: TransferParty, accounts: SourceAccountIndex): Violation | undefined {
  const owner = accounts.get(from.address);
  if (owner === undefined) {
    const message = isCvu(from.address)
      ? "is not one of this entity's source accounts: sending from a client's virtual sub-account (CVU) is reserved to payment service providers registered with the central bank (PSP mode)"
      : "is not one of this entity's source accounts (sourceAccounts)";
    return { field: 'from.address', rule: 'source_account', params: { cvu: isCvu(from.address) }, message };
  }
  if (owner !== from.owner.personId) {
    return {
      field: 'from.owner.personId',
      rule: 'source_account_owner',
      params: { address: from.address },
      message: `is not the holder of source account ${from.address}`,
    };
  }
  return undefined;
}
