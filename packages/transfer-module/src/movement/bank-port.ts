import type { BankCallOptions, BankMovement, CreateTransferResult } from '../bank';
import type { TransferRequestWire } from '../domain';

/** What giro needs of the bank: the module's BankClient; specs give a scripted bank. */
export interface BankPort {
  createTransferRequest(request: TransferRequestWire, options?: BankCallOptions): Promise<CreateTransferResult>;
  getMovement(lookup: { originId: number }, options?: BankCallOptions): Promise<BankMovement>;
}

/** Injection token of the BankPort. */
export const BANK_PORT = Symbol('giro:BankPort');
