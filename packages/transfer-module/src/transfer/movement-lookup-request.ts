import type { MovementLookup } from '../bank';
import { originIdProblem, type Problem, typeProblem, type Violation } from '../domain';
import { MAX_NETWORK_ID_LENGTH } from '../persistence';
import { TransferValidationError } from './transfer.errors';

/** The fields a lookup at the bank names a movement by (docs/bank-api.md#get-a-movement): exactly one of them. */
export const LOOKUP_FIELDS = ['originId', 'networkId', 'debinId'] as const;

const ONE_OF = LOOKUP_FIELDS.join(', ');

/**
 * A lookup as a caller gives it (`{ originId }`, `{ networkId }` or `{ debinId }`), checked: exactly one of the
 * three, of its type. Throws TransferValidationError naming the fields otherwise; nothing is asked then.
 */
export function readMovementLookup(input: unknown): MovementLookup {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TransferValidationError([
      {
        field: '',
        rule: 'type',
        ...typeProblem('object', input),
        message: `must be an object with exactly one of ${ONE_OF}`,
      },
    ]);
  }
  const fields = input as Record<string, unknown>;
  const violations: Violation[] = Object.keys(fields)
    .filter((key) => !(LOOKUP_FIELDS as readonly string[]).includes(key))
    .map((key) => ({
      field: key,
      rule: 'unknown_field',
      params: { allowed: LOOKUP_FIELDS },
      message: `is not a lookup field (known: ${ONE_OF})`,
    }));
  const given = LOOKUP_FIELDS.filter((key) => fields[key] !== undefined && fields[key] !== null);
  if (given.length === 0) {
    violations.push({
      field: '',
      rule: 'one_of',
      params: { allowed: LOOKUP_FIELDS, given: [] },
      message: `exactly one of ${ONE_OF} is required, got none`,
    });
  } else if (given.length > 1) {
    for (const field of given) {
      violations.push({
        field,
        rule: 'one_of',
        params: { allowed: LOOKUP_FIELDS, given },
        message: `only one of ${ONE_OF} may be given, got ${given.join(' and ')}`,
      });
    }
  } else {
    const problem = lookupValueProblem(given[0], fields[given[0]]);
    if (problem !== undefined) violations.push({ field: given[0], rule: 'lookup_value', ...problem });
  }
  if (violations.length > 0) throw new TransferValidationError(violations);
  const [field] = given;
  if (field === 'originId') return { originId: fields.originId as number };
  if (field === 'networkId') return { networkId: fields.networkId as string };
  return { debinId: fields.debinId as string };
}

function lookupValueProblem(field: (typeof LOOKUP_FIELDS)[number], value: unknown): Problem | undefined {
  if (field === 'originId') return originIdProblem(value);
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NETWORK_ID_LENGTH) {
    return {
      message: `must be a non-empty string of at most ${MAX_NETWORK_ID_LENGTH} characters`,
      params: { max: MAX_NETWORK_ID_LENGTH },
    };
  }
  return undefined;
}
