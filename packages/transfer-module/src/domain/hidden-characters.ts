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
  [0x3164, 'HANGUL FILLER'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
  [0xffa0, 'HALFWIDTH HANGUL FILLER'],
]);

// Every format character (bidi controls, zero-width characters, tags U+E0000…, interlinear annotations…) and
// the invisible letters and marks above.
// U+034F (a combining mark) stands alone: in a character class with others it would read as combining with them.
const HIDDEN = /\p{Cf}|\u034F|[\u115F\u1160\u17B4\u17B5\u3164\uFFA0]/u;

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
 * The same, with its params: `reason` (`bidirectional_control`, `invisible_character`), `codePoint` (`U+202E`),
 * `name` when Unicode has one, and `position` in Unicode characters.
 */
export function hiddenCharacterProblem(value: string): Problem | undefined {
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

/** `U+202E`: how a code point is named in messages and params. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
