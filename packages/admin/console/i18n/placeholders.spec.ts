import { messageParts } from './placeholders';

describe('messageParts', () => {
  it('splits a message at its placeholders, each given value in its place', () => {
    expect(messageParts('{count} claves de {owner}.', { count: 2, owner: 'ops' })).toEqual([
      { value: '2' },
      { text: ' claves de ' },
      { value: 'ops' },
      { text: '.' },
    ]);
    expect(messageParts('{a}{b}', { a: 'x', b: 0 })).toEqual([{ value: 'x' }, { value: '0' }]);
  });

  it('keeps text without placeholders whole, and a placeholder without a value as written', () => {
    expect(messageParts('Sin cambios', {})).toEqual([{ text: 'Sin cambios' }]);
    expect(messageParts('Hola {name}', { other: 'x' })).toEqual([{ text: 'Hola ' }, { text: '{name}' }]);
    // A name every object inherits is no value given.
    expect(messageParts('{constructor}', {})).toEqual([{ text: '{constructor}' }]);
  });

  it('leaves braces that are no placeholder as text', () => {
    expect(messageParts('{ no } {a-b} {}', { a: 1 })).toEqual([{ text: '{ no } {a-b} {}' }]);
  });
});
