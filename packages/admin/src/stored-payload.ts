import type { MovementView, TransferInput } from '@giro/transfer-module';

/**
 * Whether a stored movement holds the payload a transfer asks for: the fields TransferService fingerprints to
 * tell a replay (same originId, same payload) from a conflict (`intentFingerprint`: both parties' accounts and
 * CUITs, currency, amount, description, concept; the address and person id types are constants). A read-only
 * answer for a dry run, which must not go through requestTransfer, the one place that compares fingerprints.
 */
export function holdsSamePayload(stored: MovementView, transfer: TransferInput): boolean {
  return (
    stored.from.address === transfer.from.address &&
    stored.from.owner.personId === transfer.from.owner.personId &&
    stored.to.address === transfer.to.address &&
    stored.to.owner.personId === transfer.to.owner.personId &&
    stored.currencyId === transfer.currencyId &&
    stored.amount === transfer.amount &&
    stored.description === transfer.description &&
    stored.concept === transfer.concept
  );
}
