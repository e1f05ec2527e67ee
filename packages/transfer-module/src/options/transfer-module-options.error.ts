/** A TransferModule option is missing or invalid; the message names it. */
export class TransferModuleOptionsError extends Error {
  override readonly name = 'TransferModuleOptionsError';

  constructor(message: string) {
    super(`TransferModule option ${message}`);
  }
}
