import type { Violation } from '@giro/transfer-module';

// JSON.parse reads two things silently in a way the sender may not have meant: a key given twice keeps its last
// value (`"amount":"1.00","amount":"5000.00"` is 5000), and a number with more digits than a double holds is
// rounded (`1000.000000000000001` is 1000). A request that says two things, or that giro would read as another
// number than the one written, is refused instead, naming the field. The text is parsed by JSON.parse (fast, and
// the judge of validity) and then read once more, token by token, for what the parse drops.

/** Deepest nesting of objects and arrays in a request body: a transfer request nests 3 deep, a batch of them 4. */
export const MAX_JSON_DEPTH = 10;

/** Where in a JSON value: keys of objects, indexes of arrays. */
export type JsonPath = (string | number)[];

/** What a JSON text says ambiguously, and where: the violation's field is left to the caller (jsonField). */
export interface JsonAmbiguity {
  path: JsonPath;
  rule: 'exact_number' | 'duplicate_key';
  params: Violation['params'];
  message: string;
}

export type JsonText =
  | { ok: true; value: unknown; ambiguities: JsonAmbiguity[] }
  | { ok: false; violation: Omit<Violation, 'field'> };

/**
 * Reads a JSON body: at most MAX_JSON_DEPTH deep (rule `depth`), valid JSON (rule `json`); with the places where
 * it is ambiguous: a key given twice in one object (`duplicate_key`, `key`), a number a double does not hold
 * exactly (`exact_number`, `value` as written).
 */
export function readJsonText(text: string): JsonText {
  // Read before parsing: recursive code after the parser (validation, logging) would overflow its stack on a few
  // kilobytes of `[[[[…`.
  const scanned = scan(text);
  if (scanned === 'too deep') {
    return {
      ok: false,
      violation: {
        rule: 'depth',
        params: { max: MAX_JSON_DEPTH },
        message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} deep`,
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, violation: { rule: 'json', params: {}, message: 'is not valid JSON' } };
  }
  return { ok: true, value, ambiguities: scanned };
}

/** `body.amount`, `eventTypes[0]`, `[3].body.amount`: how a violation names a path. */
export function jsonField(path: JsonPath): string {
  return path.reduce<string>(
    (field, step) => (typeof step === 'number' ? `${field}[${step}]` : field === '' ? step : `${field}.${step}`),
    '',
  );
}

/** The ambiguities as violations of a body read whole. */
export function ambiguityViolations(ambiguities: JsonAmbiguity[]): Violation[] {
  return ambiguities.map(({ path, ...violation }) => ({ field: jsonField(path), ...violation }));
}

type Frame =
  | { kind: 'object'; keys: Set<string>; key: string; expectingKey: boolean }
  | { kind: 'array'; index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Reads `text` token by token, without recursion: 'too deep' as soon as it nests past MAX_JSON_DEPTH, else what it
 * says ambiguously. Malformed text gives something meaningless here: JSON.parse refuses it next.
 */
function scan(text: string): JsonAmbiguity[] | 'too deep' {
  const found: JsonAmbiguity[] = [];
  const frames: Frame[] = [];
  const path = (): JsonPath => frames.map((frame) => (frame.kind === 'object' ? frame.key : frame.index));
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    const top = frames.at(-1);
    if (char === QUOTE) {
      const end = stringEnd(text, index);
      if (end === -1) break;
      if (top?.kind === 'object' && top.expectingKey) {
        const raw = text.slice(index + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.key = key;
        top.expectingKey = false;
        if (top.keys.has(key)) {
          found.push({
            path: path(),
            rule: 'duplicate_key',
            params: { key },
            message: `is given more than once in its object: give "${key}" once`,
          });
        }
        top.keys.add(key);
      }
      index = end + 1;
    } else if (char === 0x7b /* { */) {
      frames.push({ kind: 'object', keys: new Set(), key: '', expectingKey: true });
      if (frames.length > MAX_JSON_DEPTH) return 'too deep';
      index++;
    } else if (char === 0x5b /* [ */) {
      frames.push({ kind: 'array', index: 0 });
      if (frames.length > MAX_JSON_DEPTH) return 'too deep';
      index++;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      frames.pop();
      index++;
    } else if (char === 0x2c /* , */) {
      if (top?.kind === 'object') top.expectingKey = true;
      else if (top?.kind === 'array') top.index++;
      index++;
    } else if (char === 0x2d /* - */ || (char >= 0x30 && char <= 0x39)) {
      const start = index;
      while (index < text.length && isNumberCharacter(text.charCodeAt(index))) index++;
      const number = text.slice(start, index);
      if (!holdsExactly(number)) {
        found.push({
          path: path(),
          rule: 'exact_number',
          params: { value: number },
          message: `is the JSON number ${number}, which has more digits than a number holds exactly (it would be read as ${Number(number)}): send at most 15 significant digits, or a decimal string`,
        });
      }
    } else {
      index++; // whitespace, `:`, the letters of true, false and null
    }
  }
  return found;
}

/**
 * The index of the quote that closes the string opened at `start` (one not escaped: after an even run of
 * backslashes), or -1. indexOf, not a loop over characters: strings are most of a body.
 */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

function isNumberCharacter(char: number): boolean {
  // digits, `-`, `+`, `.`, `e`, `E`
  return (char >= 0x30 && char <= 0x39) || char === 0x2d || char === 0x2b || char === 0x2e || (char | 0x20) === 0x65;
}

/**
 * Whether the double read from the JSON number `text` is the number written: the same significant digits as the
 * shortest decimal of that double (so `1000.10`, `1e2` and `1e21` hold; `1000.000000000000001` and
 * `9007199254740993`, which share their double with a neighbour, do not), and finite.
 */
function holdsExactly(text: string): boolean {
  // At most 15 characters and no exponent: at most 15 digits, which a double always holds.
  if (text.length <= 15 && !text.includes('e') && !text.includes('E')) return true;
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  return significantDigits(text) === significantDigits(String(value));
}

function significantDigits(number: string): string {
  const mantissa = number.split(/[eE]/)[0] as string;
  return mantissa.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
}
