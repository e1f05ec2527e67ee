import { BadRequestException } from '@nestjs/common';
import { ListAuditQuery } from '../../audit/audit-queries.dto';
import { AcknowledgeCancellationBody, ListTransfersQuery } from './admin-queries.dto';
import { adminValidationPipe } from './admin-validation.pipe';

/** The 400 body the admin pipe answers `value` with, read as `metatype`. */
async function refusal(value: Record<string, unknown>, metatype: new () => object) {
  const error = await adminValidationPipe()
    .transform(value, { type: 'query', metatype })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BadRequestException);
  return (error as BadRequestException).getResponse() as Record<string, unknown>;
}

describe('adminValidationPipe', () => {
  it('answers VALIDATION_FAILED with each rule’s params, the values its message names', async () => {
    expect(await refusal({ limit: '0' }, ListTransfersQuery)).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      violations: [{ field: 'limit', rule: 'min', params: { min: 1 } }],
    });
    expect(await refusal({ limit: '501' }, ListTransfersQuery)).toMatchObject({
      violations: [{ field: 'limit', rule: 'max', params: { max: 500 } }],
    });
    expect(await refusal({ outcome: 'maybe' }, ListAuditQuery)).toMatchObject({
      violations: [{ field: 'outcome', rule: 'isIn', params: { allowed: ['ok', 'refused'] } }],
    });
    expect(await refusal({ reference: '' }, AcknowledgeCancellationBody)).toMatchObject({
      violations: [{ field: 'reference', rule: 'isLength', params: { min: 1, max: 100 } }],
    });
  });

  it('gives no params to a rule that names no value, and names an unknown field', async () => {
    expect(await refusal({ limit: '1.5' }, ListTransfersQuery)).toMatchObject({
      violations: [{ field: 'limit', rule: 'isInt', params: {} }],
    });
    const unknown = await refusal({ colour: 'red' }, ListTransfersQuery);
    expect(unknown.violations).toEqual([
      { field: 'colour', rule: 'unknown_field', params: {}, message: 'is not a known field' },
    ]);
  });
});
