import type { BankStatus, DecimalAmount, Violation } from '../domain';

/** The other party of the transfer (`counterparty`, docs/bank-api.md#movement-fields). */
export interface BankCounterparty {
  personId?: string;
  personIdType?: string;
  personName?: string;
  addressType?: string;
  address?: string;
}

/**
 * The client's own account the movement moved money from (`thisSubAccount`, docs/bank-api.md#movement-fields):
 * its holder (`owners`) and its address (`accountRouting`).
 */
export interface BankSubAccount {
  personId?: string;
  personIdType?: string;
  personName?: string;
  /** `INDIVIDUAL` in the bank's example; the list of values is not given, so free text. */
  personType?: string;
  addressType?: string;
  /** The account's CBU or CVU: when present, a movement about another account than the transfer's `from` is an anomaly. */
  address?: string;
}

/**
 * A movement as the bank described it (docs/bank-api.md#movement-fields), parsed. Fields the bank left out are
 * absent; `raw` is the whole answer, unknown fields included.
 */
export interface BankMovement {
  status: BankStatus;
  id?: string;
  /** `details.originId`. */
  originId?: number;
  /** `details.networkId`. */
  networkId?: string;
  /** `details.network`. */
  network?: string;
  /** `details.type`, e.g. `DEBIT_TRANSFER_SENT_CVU`. */
  type?: string;
  /** `details.typeDescription`. */
  typeDescription?: string;
  amount?: DecimalAmount;
  amountCurrency?: string;
  motiveCode?: string;
  message?: string;
  postingDatetime?: Date;
  completedDatetime?: Date;
  counterparty?: BankCounterparty;
  thisSubAccount?: BankSubAccount;
  /**
   * Informational fields that were present but unusable (a timestamp in another format, a number where
   * text belongs). They are left out of the parsed fields and kept in `raw`; they never fail the answer.
   */
  issues: Violation[];
  raw: Record<string, unknown>;
}
