import { explainOriginId } from '@giro/transfer-module';
import { RequestReader, type Validated } from './request-violations';

export type MovementLookup = { originId: number } | { networkId: string } | { debinId: string };

export interface GetMovementRequest {
  lookup: MovementLookup;
  getRawData: boolean;
}

const LOOKUP_FIELDS = ['originId', 'networkId', 'debinId'] as const;

/**
 * Checks a get-movement body (docs/bank-api.md#get-a-movement): exactly one of originId, networkId, debinId, and an
 * optional getRawData.
 */
export function validateGetMovement(input: unknown): Validated<GetMovementRequest> {
  const reader = new RequestReader();
  const root = reader.object('', input);
  if (!root) return { ok: false, violations: reader.violations };

  const given = LOOKUP_FIELDS.filter((field) => root[field] !== undefined && root[field] !== null);
  let lookup: MovementLookup | undefined;
  if (given.length !== 1) {
    reader.add(
      given.length ? given.join(', ') : 'originId',
      'INVALID_LOOKUP',
      `exactly one of ${LOOKUP_FIELDS.join(', ')} is required, got ${given.length ? given.join(' and ') : 'none'}`,
    );
  } else if (given[0] === 'originId') {
    const problem = explainOriginId(root.originId);
    if (problem) reader.add('originId', 'INVALID_ORIGIN_ID', `originId ${problem}`);
    else lookup = { originId: root.originId as number };
  } else {
    const field = given[0];
    const id = reader.string(field, root[field]);
    if (id !== undefined) lookup = field === 'networkId' ? { networkId: id } : { debinId: id };
  }

  const getRawData = root.getRawData ?? false;
  if (typeof getRawData !== 'boolean') {
    reader.add('getRawData', 'INVALID_TYPE', `getRawData must be a boolean, got ${typeof getRawData}`);
  }
  return reader.result(() => ({ lookup: lookup as MovementLookup, getRawData: getRawData as boolean }));
}
