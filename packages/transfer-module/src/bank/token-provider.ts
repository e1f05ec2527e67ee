import { Secret } from './secret';

/** Where the access token comes from. Implement it for a bank with its own token mechanism. */
export interface TokenProvider {
  /** The token to send now. */
  getToken(): Promise<string>;
  /**
   * The bank answered 401 to a request carrying `token`: forget it if it is still the current one, so
   * that the next `getToken` fetches a new one. A provider without this method gets no retry after a
   * 401 (there would be nothing new to retry with).
   */
  invalidate?(token: string): void;
}

/** A fixed token from configuration. */
export class StaticTokenProvider implements TokenProvider {
  readonly #token: Secret;

  constructor(token: Secret) {
    this.#token = token;
  }

  async getToken(): Promise<string> {
    return this.#token.reveal();
  }
}
