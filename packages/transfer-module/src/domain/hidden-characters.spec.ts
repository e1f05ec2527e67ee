import { describeCodePoint, explainHiddenCharacter, hiddenCharacterProblem } from './hidden-characters';

describe('explainHiddenCharacter', () => {
  it.each([
    ['\u202E', 'bidirectional control U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['\u202A', 'bidirectional control U+202A LEFT-TO-RIGHT EMBEDDING'],
    ['\u2066', 'bidirectional control U+2066 LEFT-TO-RIGHT ISOLATE'],
    ['\u2069', 'bidirectional control U+2069 POP DIRECTIONAL ISOLATE'],
    ['\u200E', 'bidirectional control U+200E LEFT-TO-RIGHT MARK'],
    ['\u200F', 'bidirectional control U+200F RIGHT-TO-LEFT MARK'],
    ['\u061C', 'bidirectional control U+061C ARABIC LETTER MARK'],
    ['\u200B', 'invisible character U+200B ZERO WIDTH SPACE'],
    ['\u200D', 'invisible character U+200D ZERO WIDTH JOINER'],
    ['\u2060', 'invisible character U+2060 WORD JOINER'],
    ['\uFEFF', 'invisible character U+FEFF ZERO WIDTH NO-BREAK SPACE'],
    ['\u3164', 'invisible character U+3164 HANGUL FILLER'],
    ['\u{E0041}', 'invisible character U+E0041 (an invisible format character)'],
  ])('refuses %j, naming it and its position', (character, named) => {
    expect(explainHiddenCharacter(`pago ñandú ${character}fdp.exe`)).toBe(
      `must not contain bidirectional controls or invisible characters, found ${named} at position 12`,
    );
  });

  it('accepts visible text in any script, emoji with variation selectors included', () => {
    for (const text of ['alquiler mayo', 'ñandú — €10', 'שלום', 'مرحبا', '日本語', '❤️', '👍🏽']) {
      expect(explainHiddenCharacter(text)).toBeUndefined();
    }
  });

  it('names the first hidden character and counts positions in Unicode characters, not UTF-16 units', () => {
    expect(explainHiddenCharacter('😀\u200B\u202E')).toMatch(/U\+200B ZERO WIDTH SPACE at position 2$/);
  });

  it.each([
    ['\u2028', 'line_separator', 'must not contain line or paragraph separators, found U+2028 LINE SEPARATOR'],
    ['\u2029', 'line_separator', 'must not contain line or paragraph separators, found U+2029 PARAGRAPH SEPARATOR'],
    ['\uE000', 'private_use', 'must not contain private-use characters, found U+E000'],
    ['\u{F0000}', 'private_use', 'must not contain private-use characters, found U+F0000'],
    ['\uFFFF', 'noncharacter', 'must not contain noncharacters, found U+FFFF'],
    ['\uFDD0', 'noncharacter', 'must not contain noncharacters, found U+FDD0'],
    ['\u{1FFFE}', 'noncharacter', 'must not contain noncharacters, found U+1FFFE'],
    [
      ' \uFE0F',
      'variation_selector',
      'must not contain a variation selector that follows no character it can vary, found U+FE0F',
    ],
  ])('refuses %j with its reason, naming it and its position', (character, reason, message) => {
    const problem = hiddenCharacterProblem(`pago ñandú${character}x`);
    const position = character.startsWith(' ') ? 12 : 11;
    expect(problem).toEqual({
      message: `${message} at position ${position}`,
      params: expect.objectContaining({ reason, codePoint: expect.stringMatching(/^U\+/), position }),
    });
  });

  it('refuses the braille blank, which shows as nothing, as an invisible character', () => {
    expect(hiddenCharacterProblem('pago\u2800')?.params).toEqual({
      reason: 'invisible_character',
      codePoint: 'U+2800',
      name: 'BRAILLE PATTERN BLANK',
      position: 5,
    });
  });

  it('refuses a variation selector at the start or after another, and accepts one after a character', () => {
    expect(hiddenCharacterProblem('\uFE0F')?.params).toMatchObject({ reason: 'variation_selector', position: 1 });
    expect(hiddenCharacterProblem('❤\uFE0F\uFE0F')?.params).toMatchObject({
      reason: 'variation_selector',
      position: 3,
    });
    expect(hiddenCharacterProblem(`a${'\u{E0100}'.repeat(8)}`)?.params).toMatchObject({ position: 3 });
    expect(hiddenCharacterProblem('❤\uFE0F y ☺\uFE0E')).toBeUndefined();
  });

  it('refuses more than 4 combining marks on one character, accepts accents as people write them', () => {
    expect(hiddenCharacterProblem(`Z${'\u0301'.repeat(90)}algo`)).toEqual({
      message: 'must not stack more than 4 combining marks on one character, found more at position 6',
      params: { reason: 'combining_marks', max: 4, position: 6 },
    });
    for (const text of [
      'Pen\u0303a',
      'ệ',
      'Tie\u0302\u0301ng Vie\u0323\u0302t',
      'क्षत्रिय',
      'กรุ๊ป',
      `a${'\u0301'.repeat(4)}`,
    ]) {
      expect([text, hiddenCharacterProblem(text)]).toEqual([text, undefined]);
    }
  });

  it('pads code points to four hex digits', () => {
    expect(describeCodePoint(0xad)).toBe('U+00AD SOFT HYPHEN');
  });
});
