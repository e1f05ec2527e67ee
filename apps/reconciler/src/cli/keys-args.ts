import { ROLES } from '@giro/transfer-module';

/** What `giro-reconciler keys …` was asked to do. Names and roles are checked by ApiKeyService, like the API's. */
export type KeysCommand =
  | { action: 'create'; name: string; role: string }
  | { action: 'list'; json: boolean }
  | { action: 'revoke'; name: string };

export const KEYS_USAGE = `usage: giro-reconciler keys create --name NAME --role ROLE
       giro-reconciler keys list [--json]
       giro-reconciler keys revoke NAME

  create   a new API key for the admin API; prints it once, alone on the last line (store it: only its hash is kept)
  list     every key, revoked ones included: name, role, state, id, creation time (never a secret)
  revoke   refuse the key named NAME from now on (every replica within a second)

  ROLE is one of ${ROLES.join(', ')}. NAME: a person's or a system's name, 1 to 64 characters: letters, digits, '.', '-', '_', "'", single spaces between words ("Ana Gómez"); unique.
  The database is DATABASE_URL's (and ./.env), migrated first if needed.`;

/** The command line is wrong: the message names the flag or word and what was expected. Nothing was done. */
export class KeysUsageError extends Error {
  override readonly name = 'KeysUsageError';
}

/** `args` after `keys`, read strictly: an unknown, repeated or valueless flag is refused, naming it. */
export function parseKeysArgs(args: readonly string[]): KeysCommand {
  const [action, ...rest] = args;
  if (action === 'create') {
    const flags = readFlags(rest, ['--name', '--role']);
    const name = flags.get('--name');
    const role = flags.get('--role');
    if (name === undefined) throw new KeysUsageError('--name is required: keys create --name NAME --role ROLE');
    if (role === undefined) {
      throw new KeysUsageError(`--role is required: one of ${ROLES.join(', ')} (keys create --name NAME --role ROLE)`);
    }
    return { action, name, role };
  }
  if (action === 'list') {
    const unknown = rest.find((word) => word !== '--json');
    if (unknown !== undefined) throw new KeysUsageError(`keys list takes only --json, not ${JSON.stringify(unknown)}`);
    return { action, json: rest.includes('--json') };
  }
  if (action === 'revoke') {
    if (rest.length !== 1 || (rest[0] as string).startsWith('-')) {
      throw new KeysUsageError('keys revoke takes one NAME: keys revoke NAME');
    }
    return { action, name: rest[0] as string };
  }
  throw new KeysUsageError(
    action === undefined
      ? 'keys needs an action: create, list or revoke'
      : `unknown keys action ${JSON.stringify(action)}: create, list or revoke`,
  );
}

/** `--flag value` or `--flag=value`, each of `known` at most once. */
function readFlags(words: readonly string[], known: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const equals = word.indexOf('=');
    const flag = equals < 0 ? word : word.slice(0, equals);
    if (!known.includes(flag)) {
      throw new KeysUsageError(`unknown argument ${JSON.stringify(flag)}: keys create takes ${known.join(' and ')}`);
    }
    if (flags.has(flag)) throw new KeysUsageError(`${flag} is given twice`);
    const value = equals < 0 ? words[++index] : word.slice(equals + 1);
    if (value === undefined || value === '' || (equals < 0 && value.startsWith('--'))) {
      throw new KeysUsageError(`${flag} needs a value`);
    }
    flags.set(flag, value);
  }
  return flags;
}
