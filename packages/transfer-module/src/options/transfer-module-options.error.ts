import { GiroError } from '../domain';

/** A TransferModule option is missing or invalid; the message names it. */
export class TransferModuleOptionsError extends GiroError {
  override readonly name = 'TransferModuleOptionsError';

  constructor(message: string) {
    super('INVALID_OPTIONS', `TransferModule option ${message}`);
  }
}
