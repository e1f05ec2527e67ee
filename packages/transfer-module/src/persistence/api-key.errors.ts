import { GiroError } from '../domain';

// The API key store's refusals, each naming the key by its name (never its secret, which the store never has).

/** A key with this name exists (active or revoked: a name is never given to a second key). Nothing was written. */
export class ApiKeyNameTakenError extends GiroError {
  override readonly name = 'ApiKeyNameTakenError';

  constructor(readonly keyName: string) {
    super(
      'API_KEY_NAME_TAKEN',
      `an API key named "${keyName}" already exists (names are unique, revoked keys' included): choose another`,
    );
  }

  override answerFields() {
    return { name: this.keyName };
  }
}

/** No key has this name. */
export class ApiKeyNotFoundError extends GiroError {
  override readonly name = 'ApiKeyNotFoundError';

  constructor(readonly keyName: string) {
    super('API_KEY_NOT_FOUND', `no API key is named "${keyName}"`);
  }

  override answerFields() {
    return { name: this.keyName };
  }
}
