import { nestsDeeperThan } from './json-depth';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, at most `max` deep allowed', () => {
    expect(nestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[[1]]}}', 3)).toBe(true);
    expect(nestsDeeperThan('[]', 1)).toBe(false);
    expect(nestsDeeperThan('1', 0)).toBe(false);
  });

  it('reads brackets inside strings, escaped quotes included, as text', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\",  "b":[[1]]}', 2)).toBe(true);
  });

  it('finds 100 000 levels without recursing', () => {
    expect(nestsDeeperThan('['.repeat(100_000), 10)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(10)}${']'.repeat(10)}`.repeat(1000), 10)).toBe(false);
  });
});
