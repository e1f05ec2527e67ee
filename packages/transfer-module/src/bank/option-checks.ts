import { BankOptionsError } from './bank.errors';

/** Small checks for option values; each throws a BankOptionsError naming the option. */

export function fail(name: string, rule: string): never {
  throw new BankOptionsError(`${name} ${rule}`);
}

export function checkObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(name, 'must be an object');
  return value as Record<string, unknown>;
}

const VERIFICATION_SWITCHES = new Set(['rejectUnauthorized', 'checkServerIdentity', 'insecure']);

/** Refuses keys the option object does not define — typos, and every attempt to turn verification off. */
export function checkKnownKeys(value: Record<string, unknown>, name: string, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (VERIFICATION_SWITCHES.has(key)) {
      fail(`${name}.${key}`, 'is not supported: certificate verification can not be switched off');
    }
    if (!known.includes(key)) fail(`${name}.${key}`, `is not an option (known: ${known.join(', ')})`);
  }
}

export function checkString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(name, 'must be a non-empty string');
  return value;
}

export function checkOptionalString(value: unknown, name: string): string | undefined {
  return value === undefined ? undefined : checkString(value, name);
}

export function checkPositiveInteger(value: unknown, name: string, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    fail(name, `must be an integer of at least ${minimum}`);
  }
  return value;
}

export function checkStringList(value: unknown, name: string, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  if (!Array.isArray(value)) fail(name, 'must be an array of strings');
  return value.map((item, index) => checkString(item, `${name}[${index}]`));
}

/** A URL with the given protocols, no credentials, no fragment. */
export function checkUrl(value: unknown, name: string, protocols: readonly string[]): URL {
  const described = protocols.map((p) => p.replace(':', '')).join(' or ');
  if (typeof value !== 'string') fail(name, `must be an ${described} URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(name, `must be an ${described} URL`);
  }
  if (!protocols.includes(url.protocol)) fail(name, `must be an ${described} URL`);
  if (url.username || url.password) fail(name, 'must not carry credentials');
  if (url.hash) fail(name, 'must not have a fragment');
  return url;
}
