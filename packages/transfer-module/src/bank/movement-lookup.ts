import { explainOriginId } from '../domain';
import { isRecord } from './json-value';

/** How to find a movement (docs/bank-api.md#get-a-movement): exactly one of these. */
export type MovementLookup = { originId: number } | { networkId: string } | { debinId: string };

const LOOKUP_KEYS = ['originId', 'networkId', 'debinId'] as const;

/**
 * The get-movement request fields for `lookup`. A lookup that is not exactly one valid value is a
 * programming error: it throws a TypeError here, before anything is sent.
 */
export function lookupFields(lookup: MovementLookup, debinIdField: string): Record<string, string | number> {
  if (!isRecord(lookup))
    throw new TypeError('getMovement lookup must be an object with one of originId, networkId, debinId');
  const keys = Object.keys(lookup);
  const unknown = keys.filter((key) => !(LOOKUP_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new TypeError(`getMovement lookup has unknown field(s) ${unknown.join(', ')}`);
  if (keys.length !== 1) {
    throw new TypeError(
      `getMovement lookup must have exactly one of originId, networkId, debinId (got ${keys.length ? keys.join(', ') : 'none'})`,
    );
  }
  if ('originId' in lookup) {
    const problem = explainOriginId(lookup.originId);
    if (problem) throw new TypeError(`getMovement lookup.originId ${problem}`);
    return { originId: lookup.originId };
  }
  if ('networkId' in lookup) return { networkId: checkId(lookup.networkId, 'networkId') };
  return { [debinIdField]: checkId(lookup.debinId, 'debinId') };
}

function checkId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`getMovement lookup.${field} must be a non-empty string`);
  }
  return value;
}
