import {
  CONCEPT_CODES,
  type DecimalAmount,
  explainCbuCvu,
  explainCuit,
  explainOriginId,
  isConceptCode,
  MAX_WIRE_AMOUNT,
  PESO_CURRENCY_ID,
  parseAmount,
} from '@giro/transfer-module';
import type { AcceptedTransfer } from '../ledger/movement';
import { type JsonObject, RequestReader, type Validated } from './request-violations';

/**
 * Checks a transfer request (docs/bank-api.md#request-fields): every field present, of its type, and valid by the
 * domain rules.
 */
export function validateTransferRequest(input: unknown): Validated<AcceptedTransfer> {
  const reader = new RequestReader();
  const root = reader.object('', input);
  if (!root) return { ok: false, violations: reader.violations };

  const originId = readOriginId(reader, root.originId);
  const from = readAccount(reader, 'from', root.from);
  const to = readAccount(reader, 'to', root.to);
  const payment = reader.object('body', root.body) ?? {};
  reader.literal('body.currencyId', payment.currencyId, PESO_CURRENCY_ID, 'INVALID_CURRENCY');
  const amount = readAmount(reader, payment.amount);
  const description = reader.string('body.description', payment.description);
  const concept = reader.string('body.concept', payment.concept);
  if (concept !== undefined && !isConceptCode(concept)) {
    reader.add('body.concept', 'INVALID_CONCEPT', `body.concept must be one of ${CONCEPT_CODES.join(', ')}`);
  }

  return reader.result(() => ({
    originId: originId as number,
    fromAddress: from.address as string,
    fromPersonId: from.personId as string,
    toAddress: to.address as string,
    toPersonId: to.personId as string,
    amount: amount as DecimalAmount,
    description: description as string,
    concept: concept as string,
  }));
}

function readOriginId(reader: RequestReader, value: unknown): number | undefined {
  if (reader.required('originId', value) === undefined) return undefined;
  const problem = explainOriginId(value);
  return problem ? reader.add('originId', 'INVALID_ORIGIN_ID', `originId ${problem}`) : (value as number);
}

function readAccount(reader: RequestReader, side: 'from' | 'to', value: unknown) {
  const account: JsonObject = reader.object(side, value) ?? {};
  reader.literal(`${side}.addressType`, account.addressType, 'CBU_CVU', 'INVALID_ADDRESS_TYPE');
  let address = reader.string(`${side}.address`, account.address);
  const addressProblem = address === undefined ? undefined : explainCbuCvu(address);
  if (addressProblem) address = reader.add(`${side}.address`, 'INVALID_CBU_CVU', `${side}.address ${addressProblem}`);

  const owner: JsonObject = reader.object(`${side}.owner`, account.owner) ?? {};
  reader.literal(`${side}.owner.personIdType`, owner.personIdType, 'CUI', 'INVALID_PERSON_ID_TYPE');
  let personId = reader.string(`${side}.owner.personId`, owner.personId);
  const cuitProblem = personId === undefined ? undefined : explainCuit(personId);
  if (cuitProblem)
    personId = reader.add(`${side}.owner.personId`, 'INVALID_CUIT', `${side}.owner.personId ${cuitProblem}`);
  return { address, personId };
}

function readAmount(reader: RequestReader, value: unknown): DecimalAmount | undefined {
  if (reader.required('body.amount', value) === undefined) return undefined;
  if (typeof value !== 'number') {
    return reader.add('body.amount', 'INVALID_TYPE', `body.amount must be a JSON number, got ${typeof value}`);
  }
  // The bank's own ceiling is the largest exact JSON amount; a client's lower maximum is its own policy.
  const parsed = parseAmount(value, { max: MAX_WIRE_AMOUNT });
  return parsed.ok ? parsed.value : reader.add('body.amount', 'INVALID_AMOUNT', `body.amount ${parsed.reason}`);
}
