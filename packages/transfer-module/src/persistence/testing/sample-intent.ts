import {
  completeCbuCvu,
  completeCuit,
  type DecimalAmount,
  intentFingerprint,
  type TransferIntent,
  validateTransferIntent,
} from '../../domain';

// Test data only (imported by specs): a valid transfer request (docs/bank-api.md#request-fields), validated by the
// domain as the service will.

function cuit(first10: string): string {
  const value = completeCuit(first10);
  if (value === undefined) throw new Error(`no CUIT starts with ${first10}`);
  return value;
}

const FROM = { address: completeCbuCvu('0170001', '0000000000012'), personId: cuit('3071234567') };
const TO = { address: completeCbuCvu('0000003', '1000000000042'), personId: cuit('2012345678') };

/** Another destination than the sample's: a CVU and a CUIT of its own, for searches by party. */
export const OTHER_DESTINATION = { address: completeCbuCvu('0000003', '1000000000077'), personId: cuit('2098765432') };
export const SAMPLE_SOURCE = FROM;
export const SAMPLE_DESTINATION = TO;

export function sampleIntent(
  originId: number,
  overrides: {
    amount?: string;
    description?: string;
    from?: { address: string; personId: string };
    to?: { address: string; personId: string };
  } = {},
) {
  const to = overrides.to ?? TO;
  const from = overrides.from ?? FROM;
  const result = validateTransferIntent({
    originId,
    from: { addressType: 'CBU_CVU', address: from.address, owner: { personIdType: 'CUI', personId: from.personId } },
    to: { addressType: 'CBU_CVU', address: to.address, owner: { personIdType: 'CUI', personId: to.personId } },
    body: {
      currencyId: '032',
      amount: overrides.amount ?? '1234.50',
      description: overrides.description ?? 'rent',
      concept: 'ALQ',
    },
  });
  if (!result.ok) throw new Error(`sample intent invalid: ${JSON.stringify(result.violations)}`);
  const intent = result.intent as TransferIntent;
  return { intent, fingerprint: intentFingerprint(intent), amount: intent.amount as DecimalAmount };
}
