import type { Problem } from './violation';

// Characters a reader cannot see but that change what a text shows: bidirectional controls, which reorder
// the text around them (U+202E makes "txt.exe" read "exe.txt"), and invisible characters (zero-width spaces
// and joiners, fillers, tags), which make two texts that look the same differ. A description the recipient of a
// transfer reads must look like what it is.

/** The bidirectional controls of Unicode (UAX #9): embeddings, overrides, isolates and marks. */
const BIDI_CONTROLS: ReadonlyMap<number, string> = new Map([
  [0x061c, 'ARABIC LETTER MARK'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
]);

/** Invisible characters that are not format characters (`\p{Cf}`), named; the format characters are refused whole. */
const INVISIBLE: ReadonlyMap<number, string> = new Map([
  [0x00ad, 'SOFT HYPHEN'],
  [0x034f, 'COMBINING GRAPHEME JOINER'],
  [0x115f, 'HANGUL CHOSEONG FILLER'],
  [0x1160, 'HANGUL JUNGSEONG FILLER'],
  [0x17b4, 'KHMER VOWEL INHERENT AQ'],
  [0x17b5, 'KHMER VOWEL INHERENT AA'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x2060, 'WORD JOINER'],
  [0x2061, 'FUNCTION APPLICATION'],
  [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 'INVISIBLE PLUS'],
  [0x2800, 'BRAILLE PATTERN BLANK'],
  [0x3164, 'HANGUL FILLER'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
  [0xffa0, 'HALFWIDTH HANGUL FILLER'],
]);

// Every format character (bidi controls, zero-width characters, tags U+E0000…, interlinear annotations…) and
// the invisible letters and marks above.
// U+034F (a combining mark) stands alone: in a character class with others it would read as combining with them.
const HIDDEN = /\p{Cf}|\u034F|[\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]/u;

const LINE_SEPARATORS: ReadonlyMap<number, string> = new Map([
  [0x2028, 'LINE SEPARATOR'],
  [0x2029, 'PARAGRAPH SEPARATOR'],
]);

/** Most combining marks one character may carry: accents stack two or three deep in the scripts people write. */
const MAX_COMBINING_MARKS = 4;
const COMBINING_MARK = /^\p{M}$/u;
const PRIVATE_USE = /^\p{Co}$/u;

/** `U+202E RIGHT-TO-LEFT OVERRIDE`: the code point and, when known, its Unicode name. */
export function describeCodePoint(codePoint: number): string {
  const hex = codePointLabel(codePoint);
  const name = BIDI_CONTROLS.get(codePoint) ?? INVISIBLE.get(codePoint);
  return name === undefined ? `${hex} (an invisible format character)` : `${hex} ${name}`;
}

/**
 * Why `value` may not be shown as it is — the first bidirectional control or invisible character in it, named,
 * with its position in Unicode characters — or undefined when it has none.
 */
export function explainHiddenCharacter(value: string): string | undefined {
  return hiddenCharacterProblem(value)?.message;
}

/**
 * The same, with its params: `reason` (`bidirectional_control`, `invisible_character`, `line_separator`,
 * `private_use`, `noncharacter`, `variation_selector`: with `codePoint` (`U+202E`), `name` when Unicode has one,
 * and `position` in Unicode characters; `combining_marks`: `max`, `position` of the first mark past it).
 */
export function hiddenCharacterProblem(value: string): Problem | undefined {
  return formatCharacterProblem(value) ?? unusualCharacterProblem(value);
}

function formatCharacterProblem(value: string): Problem | undefined {
  const found = HIDDEN.exec(value);
  if (!found) return undefined;
  const codePoint = found[0].codePointAt(0) as number;
  const position = [...value.slice(0, found.index)].length + 1;
  const bidirectional = BIDI_CONTROLS.has(codePoint);
  const kind = bidirectional ? 'bidirectional control' : 'invisible character';
  const name = BIDI_CONTROLS.get(codePoint) ?? INVISIBLE.get(codePoint);
  return {
    message: `must not contain bidirectional controls or invisible characters, found ${kind} ${describeCodePoint(codePoint)} at position ${position}`,
    params: {
      reason: bidirectional ? 'bidirectional_control' : 'invisible_character',
      codePoint: codePointLabel(codePoint),
      ...(name !== undefined && { name }),
      position,
    },
  };
}

/**
 * Characters that show as something other than what they are, or as nothing: line and paragraph separators (a
 * line break to a reader, not to a control-character check), private-use characters (a glyph only one font
 * has), noncharacters, a variation selector with nothing to vary (a run of them can carry hidden bytes), and a
 * flood of combining marks that draws over the lines around it.
 */
function unusualCharacterProblem(value: string): Problem | undefined {
  let position = 0;
  let marks = 0;
  let previous: string | undefined;
  for (const character of value) {
    position++;
    const codePoint = character.codePointAt(0) as number;
    const problem = (reason: string, what: string, name?: string): Problem => ({
      message: `must not contain ${what}, found ${codePointLabel(codePoint)}${name === undefined ? '' : ` ${name}`} at position ${position}`,
      params: { reason, codePoint: codePointLabel(codePoint), ...(name !== undefined && { name }), position },
    });
    const separator = LINE_SEPARATORS.get(codePoint);
    if (separator !== undefined) return problem('line_separator', 'line or paragraph separators', separator);
    if (PRIVATE_USE.test(character)) return problem('private_use', 'private-use characters');
    if (isNoncharacter(codePoint)) return problem('noncharacter', 'noncharacters');
    if (isVariationSelector(codePoint) && !canBeVaried(previous)) {
      return problem('variation_selector', 'a variation selector that follows no character it can vary');
    }
    marks = COMBINING_MARK.test(character) ? marks + 1 : 0;
    if (marks > MAX_COMBINING_MARKS) {
      return {
        message: `must not stack more than ${MAX_COMBINING_MARKS} combining marks on one character, found more at position ${position}`,
        params: { reason: 'combining_marks', max: MAX_COMBINING_MARKS, position },
      };
    }
    previous = character;
  }
  return undefined;
}

/** U+FDD0…U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE…). */
function isNoncharacter(codePoint: number): boolean {
  return (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe;
}

function isVariationSelector(codePoint: number): boolean {
  return (
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef) ||
    (codePoint >= 0x180b && codePoint <= 0x180d) ||
    codePoint === 0x180f
  );
}

/** A variation selector varies the character before it: not the start, a space or another selector. */
function canBeVaried(previous: string | undefined): boolean {
  if (previous === undefined || /^\s$/u.test(previous)) return false;
  return !isVariationSelector(previous.codePointAt(0) as number);
}

/** `U+202E`: how a code point is named in messages and params. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
