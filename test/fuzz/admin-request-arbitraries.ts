import { explainHiddenCharacter } from '@giro/transfer-module/domain/hidden-characters';
import { FROM_CVU, TO_CBU, transferRequest } from '@test-support/reconciler-harness';
import fc from 'fast-check';

// Bad transfer requests for the admin API: one field (or several) of a valid request replaced by a bad value,
// written as raw JSON text so that values JSON.stringify cannot produce (1e309, -0, 2^53 + 1) reach the
// server as a client would send them.

/** A raw JSON value, or `undefined` to leave the field out. */
export type RawValue = string | undefined;

export interface BadField {
  /** The field the server must name (the dotted path in the request). */
  field: string;
  value: RawValue;
}

const json = (value: unknown) => JSON.stringify(value);

/** Each digit but one changed: a wrong check digit (or a wrong digit the check digit no longer matches). */
function wrongDigit(valid: string): fc.Arbitrary<string> {
  return fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 1, max: 9 })).map(([index, shift]) => {
    const digit = (Number(valid[index]) + shift) % 10;
    return json(`${valid.slice(0, index)}${digit}${valid.slice(index + 1)}`);
  });
}

const threeDecimals = fc
  .integer({ min: 1, max: 999_999_999 })
  .filter((thousandths) => thousandths % 10 !== 0)
  .map((thousandths) => (thousandths / 1000).toFixed(3));

const hugeNumbers = fc.oneof(
  fc.constantFrom('1e309', '-1e309', '1.7976931348623157e308', '1e21', '100000000000000000000'),
  fc.double({ min: 1e14, max: 1e300, noNaN: true }).map((n) => String(n)),
);

const controlCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.constant(0xd800), // an unpaired surrogate
);

const descriptionWithControl = fc
  .tuple(fc.string({ maxLength: 20 }), controlCharacter, fc.string({ maxLength: 20 }))
  .map(([before, code, after]) => json(`${before}${String.fromCharCode(code)}${after}`));

const wrongTypes = fc.constantFrom('null', 'true', '123', '[]', '{}', '"x"');
const missing = fc.constant<RawValue>(undefined);

/** For each field of a request, values it must refuse. */
const BAD_VALUES: Record<string, fc.Arbitrary<RawValue>> = {
  originId: fc.oneof(
    fc.constantFrom('-1', '0', '-0', '1.5', '1e309', '9007199254740992', '9007199254740993', '"123"', '"NaN"'),
    fc.constantFrom('null', 'true', '[]', '{}'),
    fc.integer({ min: -1_000_000, max: 0 }).map(String),
    hugeNumbers.filter((text) => !Number.isSafeInteger(JSON.parse(text))),
  ),
  'from.addressType': fc.oneof(fc.constantFrom('"CBU"', '"cbu_cvu"', '"CVU"', '""'), wrongTypes, missing),
  'from.address': fc.oneof(
    wrongDigit(FROM_CVU),
    fc.constantFrom(json(FROM_CVU.slice(1)), json(`${FROM_CVU}0`), json(`${FROM_CVU.slice(0, -1)}X`)),
    fc.constant(json(FROM_CVU.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))))), // full-width digits
    fc.constant(FROM_CVU.replace(/^0+/, '')), // as a JSON number
    fc.constantFrom('""', 'null', '[]'),
    missing,
  ),
  'from.owner.personIdType': fc.oneof(fc.constantFrom('"CUIT"', '"cui"', '""'), wrongTypes, missing),
  'from.owner.personId': fc.oneof(
    wrongDigit('30712345671'),
    fc.constantFrom('"21123456780"', '"3071234567"', '"307123456710"', '"30-71234567-1"', '30712345671'),
    wrongTypes,
    missing,
  ),
  'to.address': fc.oneof(wrongDigit(TO_CBU), wrongTypes, missing),
  'to.owner.personId': fc.oneof(wrongDigit('20123456786'), wrongTypes, missing),
  'body.currencyId': fc.oneof(fc.constantFrom('"840"', '"USD"', '"032 "', '" 032"', '32'), wrongTypes, missing),
  'body.amount': fc.oneof(
    fc.constantFrom('-0', '0', '"0.00"', '-5', '"-5.00"', '"NaN"', '"Infinity"', '"abc"', '""', '"1e5"', '"12,50"'),
    fc.constantFrom('" 12.00"', '"0x10"', '0.001', 'null', 'true', '{}', '[]'),
    threeDecimals,
    threeDecimals.map((text) => json(text)),
    hugeNumbers,
    missing,
  ),
  'body.description': fc.oneof(
    descriptionWithControl,
    fc.integer({ min: 101, max: 400 }).map((length) => json('é'.repeat(length))),
    fc.constantFrom('123', 'null', '[]', '{}'),
    missing,
  ),
  'body.concept': fc.oneof(fc.constantFrom('"XXX"', '"var"', '"VAR "', '""', '1', '[]'), fc.string().map(json)),
  from: wrongTypes.filter((value) => value !== '{}'),
  'to.owner': wrongTypes.filter((value) => value !== '{}'),
  body: fc.oneof(
    wrongTypes.filter((value) => value !== '{}'),
    missing,
  ),
};

const KNOWN_FIELDS = new Set([
  ...['originId', 'from', 'to', 'body'],
  ...['from.addressType', 'from.address', 'from.owner', 'to.owner.personIdType', 'to.owner.personId'],
  ...['body.currencyId', 'body.amount', 'body.description', 'body.concept'],
]);

/** An unknown field somewhere in the request. */
const unknownField: fc.Arbitrary<BadField> = fc
  .tuple(
    fc.constantFrom('', 'from.', 'to.owner.', 'body.'),
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }).filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)),
      // Names of Object.prototype members, and the keys of prototype pollution.
      fc.constantFrom('toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toJSON'),
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
    ),
    fc.constantFrom('1', '"x"', 'null', '{}'),
  )
  .filter(([parent, name]) => !KNOWN_FIELDS.has(`${parent}${name}`))
  .map(([parent, name, value]) => ({ field: `${parent}${name}`, value }));

export const badField: fc.Arbitrary<BadField> = fc.oneof(
  ...Object.entries(BAD_VALUES).map(([field, values]) => values.map((value) => ({ field, value }))),
  unknownField,
);

/** Several bad fields, none inside another (a bad `from` hides whatever is wrong inside it). */
export const badFields: fc.Arbitrary<BadField[]> = fc
  .uniqueArray(badField, { minLength: 1, maxLength: 4, selector: (bad) => bad.field })
  .filter((fields) => fields.every((a) => fields.every((b) => a === b || !b.field.startsWith(`${a.field}.`))));

/** `request` as JSON text, with `bad` fields replaced by their raw values (or left out). */
export function requestText(request: Record<string, unknown>, bad: BadField[]): string {
  const copy = structuredClone(request);
  const raws: string[] = [];
  for (const { field, value } of bad) {
    const path = field.split('.');
    const key = path.pop() as string;
    let parent = copy as Record<string, unknown>;
    for (const step of path) parent = parent[step] as Record<string, unknown>;
    if (value === undefined) delete parent[key];
    else {
      // An own property even for names like __proto__, as JSON.parse makes them on the server.
      Object.defineProperty(parent, key, { value: `__raw_${raws.length}__`, enumerable: true, writable: true });
      raws.push(value);
    }
  }
  return JSON.stringify(copy).replace(/"__raw_(\d+)__"/g, (_, index: string) => raws[Number(index)] as string);
}

/**
 * Descriptions a request may carry: any Unicode text without control characters, bidirectional controls or
 * invisible characters, up to 100 characters.
 */
export const validDescription = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter(
    (text) => !/[\p{Cc}\p{Cs}]/u.test(text) && explainHiddenCharacter(text) === undefined && [...text].length <= 100,
  );

/** The header of a CSV batch (POST /admin/transfers/batch), every column. */
export const CSV_HEADER = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept';

/** A cell of a CSV batch that no row may hold, and the column it is put in (the one the answer must name). */
export interface BadCsvCell {
  column: string;
  /** The cell as written in the file (quoted when it holds a comma, a quote or a line break). */
  cell: string;
}

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
/** Text that is not digits alone: never a CBU, a CVU or a CUIT. */
const notDigits = fc.string({ maxLength: 30 }).map((text) => `${text}x`);

const sample = transferRequest();
const VALID_CELLS: Record<string, string> = {
  fromAddress: FROM_CVU,
  fromCuit: sample.from.owner.personId,
  toAddress: TO_CBU,
  toCuit: sample.to.owner.personId,
};

/** The valid account or CUIT of a column with one digit changed: a wrong check digit, or a digit it no longer matches. */
function wrongDigitText(column: string): fc.Arbitrary<string> {
  return wrongDigit(VALID_CELLS[column]).map((text) => JSON.parse(text) as string);
}

export const badCsvCell: fc.Arbitrary<BadCsvCell> = fc.oneof(
  fc
    .oneof(fc.constantFrom('-1', '0', '1.5', '1e3', 'abc', '9007199254740993'), notDigits)
    .map((text) => ({ column: 'originId', cell: csvCell(text) })),
  ...['fromAddress', 'fromCuit', 'toAddress', 'toCuit'].map((column) =>
    fc.oneof(notDigits, wrongDigitText(column)).map((text) => ({ column, cell: csvCell(text) })),
  ),
  fc
    // An office's amounts (1.234,50, $ 1.234,50, spaces around) are read; these are not amounts in any of its ways.
    .oneof(fc.constantFrom('1.234,5.0', '0', '-5', 'abc', '', '1e3', '1 0', '1.500'), threeDecimals)
    .map((text) => ({ column: 'amount', cell: csvCell(text) })),
  fc.constantFrom('USD', '32', '', '0320').map((text) => ({ column: 'currencyId', cell: text })),
  // Control characters only: an unpaired surrogate cannot be written in a UTF-8 file.
  fc
    .tuple(
      fc.string({ maxLength: 20 }),
      fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })),
    )
    .map(([text, code]) => ({ column: 'description', cell: csvCell(`${text}${String.fromCharCode(code)}`) })),
  fc.constantFrom('var', 'XXX', '1').map((text) => ({ column: 'concept', cell: text })),
);

/** A valid CSV row of a batch with one cell replaced by a bad one. */
export function csvRowWith(originId: number, bad: BadCsvCell): string {
  const cells: Record<string, string> = {
    originId: String(originId),
    ...VALID_CELLS,
    currencyId: '032',
    amount: '10.00',
    description: 'fuzzed batch',
    concept: 'VAR',
  };
  cells[bad.column] = bad.cell;
  return CSV_HEADER.split(',')
    .map((column) => cells[column])
    .join(',');
}
