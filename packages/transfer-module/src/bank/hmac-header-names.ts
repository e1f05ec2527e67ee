import { DEFAULT_HMAC_HEADERS, type HmacHeaderNames, type HmacPreset } from './hmac-signer';
import { checkKnownKeys, checkObject, checkString, fail } from './option-checks';

// RFC 9110 token characters: what a header field name may be made of.
const HEADER_NAME_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Headers the bank client sets itself (or undici manages): a signature header must not replace them. */
const RESERVED_HEADERS = ['authorization', 'content-type', 'content-length', 'accept', 'host', 'connection'];

/** Which header names each preset sends. */
const PRESET_HEADERS: Record<HmacPreset, readonly (keyof HmacHeaderNames)[]> = {
  default: Object.keys(DEFAULT_HMAC_HEADERS) as (keyof HmacHeaderNames)[],
  'single-header': ['signature'],
};

/** Validates `bank.hmac.headers` for `preset` (messages name the option); unset names keep the preset's. */
export function resolveHmacHeaderNames(
  value: unknown,
  preset: HmacPreset,
  name: string,
): Partial<HmacHeaderNames> | undefined {
  if (value === undefined) return undefined;
  const headers = checkObject(value, name);
  const used = PRESET_HEADERS[preset];
  checkKnownKeys(headers, name, Object.keys(DEFAULT_HMAC_HEADERS));
  const resolved: Partial<HmacHeaderNames> = {};
  for (const key of Object.keys(headers) as (keyof HmacHeaderNames)[]) {
    const option = `${name}.${key}`;
    if (!used.includes(key)) fail(option, `is not used by the ${preset} preset (it sends ${used.join(', ')} only)`);
    const header = checkString(headers[key], option);
    if (!HEADER_NAME_PATTERN.test(header)) fail(option, 'must be an HTTP header name, e.g. X-Signature');
    if (RESERVED_HEADERS.includes(header.toLowerCase()))
      fail(option, `must not be a header the client sends itself (${RESERVED_HEADERS.join(', ')})`);
    resolved[key] = header;
  }
  checkDistinct(resolved, used, name);
  return resolved;
}

/** Two headers of one name (given, or the preset's default) would overwrite each other; names what was given. */
function checkDistinct(given: Partial<HmacHeaderNames>, used: readonly (keyof HmacHeaderNames)[], name: string): void {
  const effective = (key: keyof HmacHeaderNames) => given[key] ?? DEFAULT_HMAC_HEADERS[key];
  for (const [index, key] of used.entries()) {
    for (const other of used.slice(0, index)) {
      if (effective(key).toLowerCase() !== effective(other).toLowerCase()) continue;
      const [named, against] = given[key] === undefined ? [other, key] : [key, other];
      fail(`${name}.${named}`, `must differ from the ${against} header (${effective(against)})`);
    }
  }
}
