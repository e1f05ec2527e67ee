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
  amount?: DecimalAmount;
  amountCurrency?: string;
  motiveCode?: string;
  message?: string;
  postingDatetime?: Date;
  completedDatetime?: Date;
  counterparty?: BankCounterparty;
  /**
   * Informational fields that were present but unusable (a timestamp in another format, a number where
   * text belongs). They are left out of the parsed fields and kept in `raw`; they never fail the answer.
   */
  issues: Violation[];
  raw: Record<string, unknown>;
}
