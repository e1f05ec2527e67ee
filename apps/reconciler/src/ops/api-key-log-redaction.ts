import { redactApiKeys } from '@giro/transfer-module';
import { REDACTED } from './redacted';

/** How deep into a logged object strings are searched for keys (a log call's objects are shallow). */
const MAX_DEPTH = 4;

/**
 * A logged value with the secret of every API key in its strings replaced (`giro_<keyId>_[redacted]`): a key
 * pasted where it does not belong — a message, a name, a URL, an error — never reaches a log line in clear, whatever
 * field it is in. Plain objects (with or without a prototype), arrays and errors are searched (copies are made only when something changed);
 * anything else (a request, a socket) is left to the serializers, which redact the URL and headers.
 */
export function redactApiKeysIn<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactApiKeys(value, REDACTED) as T;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactApiKeysIn(item, depth + 1));
    return (items.some((item, index) => item !== value[index]) ? items : value) as T;
  }
  if (value instanceof Error) {
    const message = redactApiKeys(value.message, REDACTED);
    if (message === value.message && !(value.stack && redactApiKeys(value.stack, REDACTED) !== value.stack)) {
      return value;
    }
    const copy = Object.assign(Object.create(Object.getPrototypeOf(value)), value, { message }) as Error;
    if (value.stack !== undefined) copy.stack = redactApiKeys(value.stack, REDACTED);
    return copy as T;
  }
  const prototype = Object.getPrototypeOf(value);
  // Plain objects only, those without a prototype included (Express's route `params`).
  if (prototype !== Object.prototype && prototype !== null) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const redacted = redactApiKeysIn(item, depth + 1);
    if (redacted !== item) changed = true;
    return [key, redacted];
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}
