// The rules a violation may name, with the params it carries: what docs/errors.md lists for a client that says
// violations in its own language. A rule's `reason` param, when it has one, says which of its messages it is.

interface ViolationRuleDeclaration {
  /** The params, named as they come, with what each is. */
  params: string;
  doc: string;
}

export const VIOLATION_RULES: Readonly<Record<string, ViolationRuleDeclaration>> = {
  required: { params: '— (a note: `maxLength`)', doc: 'The field is missing.' },
  type: {
    params: '`expected`, `actual` (JSON types: `string`, `number`, `object`, `array`, `null`…)',
    doc: 'The value is of another JSON type.',
  },
  unknown_field: {
    params: '`allowed` (the fields known there)',
    doc: 'The request has a field the route does not take.',
  },
  unknown: { params: '`allowed`', doc: "A webhook endpoint's field it does not take (or not here)." },
  one_of: { params: '`allowed`, `given`', doc: 'Exactly one of the `allowed` fields must be given.' },
  origin_id: {
    params:
      '`reason`: `type` (`type`), `not_finite`, `not_integer` (`value`), `min` (`min`, `value`), `max` (`max`, `value`)',
    doc: 'Not an originId: an integer from 1 to 2^53−1.',
  },
  address_type: { params: '`expected`, `value`', doc: 'The address type must be `CBU_CVU`.' },
  person_id_type: { params: '`expected`, `value`', doc: 'The person id type must be `CUI`.' },
  cbu_cvu: {
    params:
      '`reason`: `type` (`length`, `type`), `characters` (`character`, `position`), `length` (`expected`, `actual`), `check_digit` (`block`, `position`, `expected`, `actual`), `check_digits` (`expected1`, `actual1`, `expected2`, `actual2`: both blocks wrong)',
    doc: 'Not a CBU/CVU: 22 digits with both check digits right.',
  },
  cvu: {
    params: "`cbu_cvu`'s, or `reason` `cbu` (a valid CBU, not a CVU)",
    doc: "A client sub-account's address must be a CVU.",
  },
  cuit: {
    params:
      '`reason`: `type`, `characters`, `length` (as `cbu_cvu`), `prefix` (`prefix`, `allowed`), `check_value` (no check digit exists for this base), `check_digit` (`position`, `expected`, `actual`)',
    doc: 'Not a CUIT/CUIL: 11 digits, a known prefix, the check digit right.',
  },
  currency: { params: '`allowed`, `value`', doc: 'A currency the module does not send.' },
  concept: { params: '`allowed`, `value`', doc: 'A concept code the module does not send.' },
  amount: {
    params:
      '`reason`: `type` (`type`), `empty`, `whitespace`, `exponent`, `not_positive`, `format`, `not_finite` (`value`), `decimals` (`decimals` when known, `value`)',
    doc: 'Not an amount: a JSON number or a decimal string, greater than 0, at most 2 decimals.',
  },
  max: { params: '`max`, `value`', doc: 'The amount is above the maximum per transfer.' },
  execute_on: { params: '`format`', doc: 'Not a day: `executeOn` is written `YYYY-MM-DD` (a Buenos Aires day).' },
  execute_at: {
    params: '`format`',
    doc: 'Not a moment: `executeAt` is an ISO 8601 date and time with its offset (`Z` or `±HH:MM`).',
  },
  exclusive: { params: '`fields`', doc: 'At most one of `fields` may be given.' },
  day: {
    params: "`format`, or `type`'s",
    doc: "Not a day: a report's `date` is written `YYYY-MM-DD` (a Buenos Aires day).",
  },
  past: { params: '`today`', doc: 'The execution day is before today (Buenos Aires).' },
  calendar: {
    params: '`years`',
    doc: "The execution day is in a year whose bank holidays giro's calendar does not know yet.",
  },
  business_day: {
    params: '`next` (the next business day)',
    doc: 'The execution day is a weekend or a holiday, and the non-business-day policy is `refuse`.',
  },
  horizon: { params: '`maxDays`', doc: 'The execution moment is too far ahead.' },
  length: {
    params: '`max`, `actual` (a description, in Unicode characters); `min`, `max` (a note)',
    doc: 'The text is too long (or empty).',
  },
  range: { params: '`min`, `max`, `value`', doc: 'Not an integer from `min` to `max` (a page size…).' },
  status: { params: '`allowed`', doc: 'Not a status.' },
  cursor: { params: '—', doc: 'Not the `nextCursor` of a previous page.' },
  characters: {
    params:
      '`reason`: `control_character` (`codePoint`, `position`; a note: none), `control_character_or_line_break`, `bidirectional_control`, `invisible_character`, `line_separator`, `private_use`, `noncharacter`, `variation_selector` (`codePoint`, `name` when Unicode has one, `position`), `combining_marks` (`max`, `position`)',
    doc: 'The text has a character it may not carry: a control character, one a reader cannot see, or one that shows as something else.',
  },
  source_account: {
    params: '`cvu` (the address is a CVU: PSP mode would be needed), or `subAccount` (registered, but disabled)',
    doc: "Not one of the entity's source accounts (nor, in PSP mode, an enabled client sub-account).",
  },
  source_account_owner: { params: '`address`', doc: 'The CUIT given is not the holder of the source account.' },
  per_transfer: {
    params: '`address`, `limit`, `amount`',
    doc: "The amount passes the source account's maximum per transfer.",
  },
  daily_amount: {
    params: '`address`, `limit`, `remaining`',
    doc: "The amount passes what remains of the source account's daily amount.",
  },
  daily_count: {
    params: '`address`, `limit`, `remaining`',
    doc: "The source account's transfers for today are used up.",
  },
  payee_blocked: {
    params: '`address`',
    doc: 'The destination account is blocked in the payee book: transfers to it are refused.',
  },
  label: { params: '`max`', doc: "A payee's label is empty or too long." },
  unique: {
    params: '`originId`, `row` (a batch: the earlier row), or none (a repeated originId of a decision)',
    doc: 'The originId repeats an earlier one.',
  },
  batch: { params: '`min`, `max`', doc: 'A bulk decision takes 1 to `max` originIds.' },
  reason: { params: '`min`, `max`', doc: 'A rejection needs a reason of `min` to `max` characters.' },
  lookup_value: {
    params: "`origin_id`'s, or `max` (a networkId or debinId: a non-empty text of at most `max`)",
    doc: 'The lookup value is not one.',
  },
  owner_name: { params: '`max`', doc: "The holder's name is too long or has control characters." },
  key_name: {
    params:
      '`reason`: `required`, `format` (`max`), `reserved` (`name`: an actor that is not a key), `key_id` (`name`: shaped like a key id)',
    doc: "Not a name for an API key: 1 to `max` letters (any script, composed), digits, `.`, `-`, `_`, `'`, single spaces between words.",
  },
  role: { params: '`allowed`', doc: 'Not a role.' },
  webhook_url: {
    params: '—',
    doc: 'A webhook URL refused: https, and not a local or private address (the message says why).',
  },
  webhook_secret: { params: '—', doc: 'A webhook secret refused (the message says why).' },
  event_types: { params: '`allowed`', doc: 'An event type that cannot be subscribed to.' },
  max_length: { params: '`max`', doc: 'The text is too long.' },
  enum: { params: '`allowed`', doc: 'Not one of the values allowed.' },
  json: { params: '—', doc: 'The body is not valid JSON.' },
  exact_number: {
    params: '`value` (the number as written)',
    doc: 'A JSON number with more digits than a number holds exactly: it would be read as another number.',
  },
  duplicate_key: { params: '`key`', doc: 'A key given twice in one JSON object, with different values.' },
  depth: { params: '`max`', doc: 'The body nests objects and arrays more than `max` deep.' },
  size: { params: '`max` (bytes)', doc: 'The body is too large.' },
  body: { params: '—', doc: 'The body could not be read in full.' },
  media_type: { params: '`allowed`, `actual`', doc: 'A batch must be `text/csv` or `application/json`.' },
  encoding: { params: '`expected`', doc: 'A batch file must be UTF-8.' },
  array: { params: '—', doc: 'A JSON batch must be an array of transfer requests.' },
  empty: { params: '—', doc: 'A batch has no transfer request (no header row, or no row).' },
  rows: { params: '`max`, `actual`', doc: 'A batch has more rows than it may.' },
  cells: { params: '`expected`, `actual`', doc: 'A CSV row has another number of cells than the header.' },
  csv: { params: '—', doc: 'The file is not valid CSV (the message names the line).' },
  unknown_column: { params: '`columns`', doc: 'The CSV header names columns a batch does not take.' },
  duplicate_column: { params: '`columns`', doc: 'The CSV header names columns more than once.' },
  missing_column: { params: '`columns`', doc: 'The CSV header lacks required columns.' },
  statement_date: {
    params: '`row`, `value`',
    doc: "A statement line's date is not a day (`YYYY-MM-DD` or `DD/MM/YYYY`).",
  },
  statement_amount: {
    params: '`row`, `value`',
    doc: "A statement line's amount is not an amount with at most 2 decimals (negative for a debit).",
  },
};
