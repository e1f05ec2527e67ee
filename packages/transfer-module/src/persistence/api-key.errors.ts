// The API key store's refusals, each naming the key by its name (never its secret, which the store never has).

/** A key with this name exists (active or revoked: a name is never given to a second key). Nothing was written. */
export class ApiKeyNameTakenError extends Error {
  override readonly name = 'ApiKeyNameTakenError';

  constructor(readonly keyName: string) {
    super(`an API key named "${keyName}" already exists (names are unique, revoked keys' included): choose another`);
  }
}

/** No key has this name. */
export class ApiKeyNotFoundError extends Error {
  override readonly name = 'ApiKeyNotFoundError';

  constructor(readonly keyName: string) {
    super(`no API key is named "${keyName}"`);
  }
}
