/** Node's socket errors, and pg-pool's own messages for a pool that cannot connect. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const PG_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
];

/**
 * Postgres SQLSTATEs: class 08 (connection exception), 57P01–57P03 (the server shutting down or starting up),
 * 53300 (too many connections), 53100 (disk full).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '53100'].includes(code);
}

/** The Postgres server cannot be reached or cannot take the statement for now (restarting, cut off, full). */
export function isPostgresUnavailable(failure: { code?: unknown; message?: unknown }): boolean {
  const { code, message } = failure;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message));
}
