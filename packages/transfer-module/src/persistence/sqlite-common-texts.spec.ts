import { CommonTexts } from './sqlite-common-texts';

describe('CommonTexts', () => {
  it('remembers texts up to its capacity, forgetting the oldest first', () => {
    const texts = new CommonTexts(2);
    texts.add('"alquiler"');
    texts.add('"sueldo"');
    expect(texts.has('"alquiler"')).toBe(true);
    texts.add('"cuota"');
    expect([texts.has('"alquiler"'), texts.has('"sueldo"'), texts.has('"cuota"')]).toEqual([false, true, true]);
  });
});
