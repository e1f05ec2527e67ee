import { type BankAuthOptions, type BankClientOptions, type BankHmacOptions, secret } from '@giro/transfer-module';
import type { ReconcilerEnvironment } from './environment';

/**
 * The bank client's options from BANK_* variables (BANK_BASE_URL is set). Certificates and the key are
 * given as files, which the client reads once; every secret is wrapped, so the options print safely.
 * Problems with how the variables go together are pushed to `problems`, naming the variables.
 */
export function bankClientOptionsFromEnvironment(
  vars: ReconcilerEnvironment,
  problems: string[],
): BankClientOptions | undefined {
  const before = problems.length;
  for (const name of ['BANK_CERT_FILE', 'BANK_KEY_FILE'] as const) {
    if (vars[name] === undefined) problems.push(`${name} is required: the bank requires mutual TLS`);
  }
  const auth = authOptions(vars, problems);
  const hmac = hmacOptions(vars, problems);
  const duplicateCodes = codeList(vars.BANK_DUPLICATE_CODES);
  const notFoundCodes = codeList(vars.BANK_NOT_FOUND_CODES);
  // Set but listing nothing (" , "): a mistake, not a request for the default, which is to leave it unset.
  for (const [name, codes] of [
    ['BANK_DUPLICATE_CODES', duplicateCodes],
    ['BANK_NOT_FOUND_CODES', notFoundCodes],
  ] as const) {
    if (codes?.length === 0) problems.push(`${name} lists no code: give comma-separated codes, or leave it unset`);
  }
  if (problems.length > before || auth === undefined || vars.BANK_BASE_URL === undefined) return undefined;

  return {
    baseUrl: vars.BANK_BASE_URL,
    tls: {
      ...(vars.BANK_CA_FILE !== undefined && { caFile: vars.BANK_CA_FILE }),
      certFile: vars.BANK_CERT_FILE,
      keyFile: vars.BANK_KEY_FILE,
      ...(vars.BANK_KEY_PASSPHRASE !== undefined && { passphrase: secret(vars.BANK_KEY_PASSPHRASE) }),
    },
    auth,
    ...(hmac && { hmac }),
    ...(duplicateCodes?.length && { duplicateCodes }),
    ...(notFoundCodes?.length && { notFoundCodes }),
    ...(vars.BANK_PROXY_URL !== undefined && { proxyUrl: vars.BANK_PROXY_URL }),
    ...(vars.BANK_PATH_PREFIX !== undefined && { pathPrefix: vars.BANK_PATH_PREFIX }),
    ...(vars.BANK_DEBIN_ID_FIELD !== undefined && { debinIdField: vars.BANK_DEBIN_ID_FIELD }),
    ...(vars.BANK_TIMEOUT_MS !== undefined && { timeouts: uniformTimeouts(vars.BANK_TIMEOUT_MS) }),
  };
}

/** The codes of a list, blanks dropped. */
function codeList(codes: string[] | undefined): string[] | undefined {
  return codes?.filter((code) => code !== '');
}

/**
 * One figure for the connect, headers and body timeouts. Leases last longer than the longest bank call, so a
 * shorter timeout also lets another process take over sooner the movements of a process that died.
 */
function uniformTimeouts(ms: number): BankClientOptions['timeouts'] {
  return { connectMs: ms, headersMs: ms, bodyMs: ms };
}

function authOptions(vars: ReconcilerEnvironment, problems: string[]): BankAuthOptions | undefined {
  const scheme = vars.BANK_AUTH_SCHEME === undefined ? {} : { scheme: vars.BANK_AUTH_SCHEME };
  const oauth2Variables = ['BANK_TOKEN_URL', 'BANK_CLIENT_ID', 'BANK_CLIENT_SECRET'] as const;
  const oauth2Set = oauth2Variables.filter((name) => vars[name] !== undefined);

  if (vars.BANK_TOKEN !== undefined) {
    if (oauth2Set.length > 0) {
      problems.push(
        `BANK_TOKEN and ${oauth2Set.join(', ')} are exclusive: give a static token or OAuth2 client credentials`,
      );
      return undefined;
    }
    return { ...scheme, token: secret(vars.BANK_TOKEN) };
  }
  if (oauth2Set.length === 0) {
    problems.push('BANK_TOKEN, or BANK_TOKEN_URL with BANK_CLIENT_ID and BANK_CLIENT_SECRET, is required');
    return undefined;
  }
  const missing = oauth2Variables.filter((name) => vars[name] === undefined);
  if (missing.length > 0) {
    problems.push(
      `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required with ${oauth2Set.join(', ')} (OAuth2 client credentials)`,
    );
    return undefined;
  }
  return {
    ...scheme,
    oauth2: {
      tokenUrl: vars.BANK_TOKEN_URL as string,
      clientId: vars.BANK_CLIENT_ID as string,
      clientSecret: secret(vars.BANK_CLIENT_SECRET as string),
    },
  };
}

/** The header name variables, by the `bank.hmac.headers` field each one sets. */
const HMAC_HEADER_VARIABLES = {
  timestamp: 'BANK_HMAC_TIMESTAMP_HEADER',
  signature: 'BANK_HMAC_SIGNATURE_HEADER',
  keyId: 'BANK_HMAC_KEY_ID_HEADER',
} as const;

function hmacOptions(vars: ReconcilerEnvironment, problems: string[]): BankHmacOptions | undefined {
  if (vars.BANK_HMAC_SECRET === undefined) {
    const dependent = [
      'BANK_HMAC_KEY_ID',
      'BANK_HMAC_ALGORITHM',
      'BANK_HMAC_PRESET',
      ...Object.values(HMAC_HEADER_VARIABLES),
    ];
    for (const name of dependent as (keyof ReconcilerEnvironment)[]) {
      if (vars[name] !== undefined) problems.push(`${name} needs BANK_HMAC_SECRET`);
    }
    return undefined;
  }
  const headers = Object.fromEntries(
    Object.entries(HMAC_HEADER_VARIABLES)
      .filter(([, variable]) => vars[variable] !== undefined)
      .map(([field, variable]) => [field, vars[variable]]),
  );
  return {
    secret: secret(vars.BANK_HMAC_SECRET),
    ...(vars.BANK_HMAC_KEY_ID !== undefined && { keyId: vars.BANK_HMAC_KEY_ID }),
    ...(vars.BANK_HMAC_ALGORITHM !== undefined && { algorithm: vars.BANK_HMAC_ALGORITHM }),
    ...(vars.BANK_HMAC_PRESET !== undefined && { preset: vars.BANK_HMAC_PRESET }),
    ...(Object.keys(headers).length > 0 && { headers }),
  };
}
