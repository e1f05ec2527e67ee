import { describeCodePoint, explainHiddenCharacter } from './hidden-characters';

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

  it('pads code points to four hex digits', () => {
    expect(describeCodePoint(0xad)).toBe('U+00AD SOFT HYPHEN');
  });
});
