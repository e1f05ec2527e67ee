import { type BankMovement, parseMovement } from '../bank';

// What the bank said about a movement in its latest answer (docs/bank-api.md#movement-fields), for an operator
// matching a bank statement. Read from the stored last answer (`lastBankAnswer`) when a view is built, not from
// columns of its own: that answer is already stored whole with every answer applied, so the details cost no
// write on the create and sweep paths, only this parse when a movement is shown. An answer that was not applied
// (an anomaly) is not stored as the last answer, so it never shows here: its anomaly shows it (AnomalyView.bank).

export interface BankAccountRoutingView {
  addressType?: string;
  address?: string;
}

export interface BankCounterpartyView {
  personId?: string;
  personIdType?: string;
  personName?: string;
  accountRouting?: BankAccountRoutingView;
}

export interface BankSubAccountView {
  owners?: { personId?: string; personIdType?: string; personName?: string; personType?: string };
  accountRouting?: BankAccountRoutingView;
}

/** The bank's details of the movement, as its latest answer gave them; what it left out is absent. */
export interface BankDetailsView {
  /** The bank's `id` of the movement. */
  movementId?: string;
  type?: string;
  typeDescription?: string;
  network?: string;
  networkId?: string;
  /** ISO 8601 UTC. */
  postingDatetime?: string;
  completedDatetime?: string;
  motiveCode?: string;
  message?: string;
  counterparty?: BankCounterpartyView;
  thisSubAccount?: BankSubAccountView;
}

/**
 * The details of a stored last answer; null before any answer, and when the last thing stored is not a movement
 * (a creation refused with an error is stored as that error).
 */
export function toBankDetailsView(lastBankAnswer: unknown): BankDetailsView | null {
  if (lastBankAnswer === null || lastBankAnswer === undefined) return null;
  const parsed = parseMovement(lastBankAnswer);
  return parsed.ok ? bankDetailsOf(parsed.movement) : null;
}

/** The details of a parsed movement, only the fields the bank sent. */
export function bankDetailsOf(movement: BankMovement): BankDetailsView {
  const view: BankDetailsView = {};
  if (movement.id !== undefined) view.movementId = movement.id;
  if (movement.type !== undefined) view.type = movement.type;
  if (movement.typeDescription !== undefined) view.typeDescription = movement.typeDescription;
  if (movement.network !== undefined) view.network = movement.network;
  if (movement.networkId !== undefined) view.networkId = movement.networkId;
  if (movement.postingDatetime !== undefined) view.postingDatetime = movement.postingDatetime.toISOString();
  if (movement.completedDatetime !== undefined) view.completedDatetime = movement.completedDatetime.toISOString();
  if (movement.motiveCode !== undefined) view.motiveCode = movement.motiveCode;
  if (movement.message !== undefined) view.message = movement.message;
  const { counterparty, thisSubAccount } = movement;
  if (counterparty !== undefined) {
    const party: BankCounterpartyView = {};
    if (counterparty.personId !== undefined) party.personId = counterparty.personId;
    if (counterparty.personIdType !== undefined) party.personIdType = counterparty.personIdType;
    if (counterparty.personName !== undefined) party.personName = counterparty.personName;
    const routing = routingOf(counterparty);
    if (routing !== undefined) party.accountRouting = routing;
    view.counterparty = party;
  }
  if (thisSubAccount !== undefined) {
    const account: BankSubAccountView = {};
    const { personId, personIdType, personName, personType } = thisSubAccount;
    const owners: NonNullable<BankSubAccountView['owners']> = {};
    if (personId !== undefined) owners.personId = personId;
    if (personIdType !== undefined) owners.personIdType = personIdType;
    if (personName !== undefined) owners.personName = personName;
    if (personType !== undefined) owners.personType = personType;
    if (Object.keys(owners).length > 0) account.owners = owners;
    const routing = routingOf(thisSubAccount);
    if (routing !== undefined) account.accountRouting = routing;
    view.thisSubAccount = account;
  }
  return view;
}

function routingOf(account: { addressType?: string; address?: string }): BankAccountRoutingView | undefined {
  if (account.addressType === undefined && account.address === undefined) return undefined;
  const routing: BankAccountRoutingView = {};
  if (account.addressType !== undefined) routing.addressType = account.addressType;
  if (account.address !== undefined) routing.address = account.address;
  return routing;
}
