import { originIdProblem, type Violation } from '../domain';
import { TransferValidationError } from './transfer.errors';

/**
 * The `originIds` of a bulk request (`{ originIds: [...] }`): 1 to `max` originIds, no repeats; a
 * TransferValidationError names each one at fault.
 */
export function readOriginIdList(input: unknown, max: number): number[] {
  const originIds = (input as { originIds?: unknown } | null)?.originIds;
  if (!Array.isArray(originIds) || originIds.length === 0 || originIds.length > max) {
    throw new TransferValidationError([
      {
        field: 'originIds',
        rule: 'batch',
        params: { min: 1, max },
        message: `must be an array of 1 to ${max} originIds`,
      },
    ]);
  }
  const violations: Violation[] = [];
  const seen = new Set<number>();
  originIds.forEach((originId, index) => {
    const problem = originIdProblem(originId);
    if (problem !== undefined) violations.push({ field: `originIds[${index}]`, rule: 'origin_id', ...problem });
    else if (seen.has(originId))
      violations.push({ field: `originIds[${index}]`, rule: 'unique', params: {}, message: 'is repeated' });
    seen.add(originId);
  });
  if (violations.length > 0) throw new TransferValidationError(violations);
  return originIds as number[];
}
