import { ambiguityViolations, jsonField, MAX_JSON_DEPTH, readJsonText } from './strict-json';

const read = (text: string) => {
  const result = readJsonText(text);
  if (!result.ok) throw new Error(`not read: ${result.violation.message}`);
  return result;
};
const ambiguities = (text: string) => ambiguityViolations(read(text).ambiguities);

describe('readJsonText', () => {
  it('reads what JSON.parse reads, and finds nothing ambiguous in a text that says one thing', () => {
    const text =
      '{"a":[1,2.5,-0.1,1e2,1E-7,"x\\"[{,:",null,true,false],"b":{"c":"1000.00","d":[{"c":1},{"c":2}]},"c":0,"e":-0}';
    expect(read(text).value).toEqual(JSON.parse(text));
    expect(read(text).ambiguities).toEqual([]);
  });

  it('refuses invalid JSON, and nesting past the limit before parsing', () => {
    expect(readJsonText('{"a":')).toEqual({
      ok: false,
      violation: { rule: 'json', params: {}, message: 'is not valid JSON' },
    });
    expect(readJsonText('{"a":1,"a":2}x')).toMatchObject({ ok: false, violation: { rule: 'json' } });
    expect(readJsonText('['.repeat(100_000))).toEqual({
      ok: false,
      violation: {
        rule: 'depth',
        params: { max: MAX_JSON_DEPTH },
        message: 'must not nest objects and arrays more than 10 deep',
      },
    });
    expect(readJsonText(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(true);
  });

  it('names a number a double does not hold exactly, with the number as written', () => {
    expect(ambiguities('{"body":{"amount":1000.000000000000001}}')).toEqual([
      {
        field: 'body.amount',
        rule: 'exact_number',
        params: { value: '1000.000000000000001' },
        message: expect.stringMatching(/^is the JSON number 1000\.000000000000001, .*it would be read as 1000\)/),
      },
    ]);
    expect(
      ambiguities(
        '[9007199254740993, 1e400, 1e-400, 0.1, 1000.10, 1e-7, 123456789012345, 9007199254740991, 1e21, 1.7976931348623157e308]',
      ),
    ).toEqual([
      expect.objectContaining({ field: '[0]', params: { value: '9007199254740993' } }),
      expect.objectContaining({ field: '[1]', params: { value: '1e400' } }),
      expect.objectContaining({ field: '[2]', params: { value: '1e-400' } }),
    ]);
    expect(ambiguities('1000.000000000000001')).toEqual([expect.objectContaining({ field: '' })]);
  });

  it('names a key given twice in one object, whatever its values, wherever it is', () => {
    expect(ambiguities('{"body":{"amount":"1.00","amount":"5000.00"}}')).toEqual([
      {
        field: 'body.amount',
        rule: 'duplicate_key',
        params: { key: 'amount' },
        message: 'is given more than once in its object: give "amount" once',
      },
    ]);
    expect(ambiguities('{"a":1,"a":1}')).toEqual([expect.objectContaining({ field: 'a', rule: 'duplicate_key' })]);
    expect(ambiguities('[{"a":1},{"b":{"c":[1,{"c":1}],"c":2}}]')).toEqual([
      expect.objectContaining({ field: '[1].b.c', rule: 'duplicate_key' }),
    ]);
    expect(ambiguities('{"a\\u0062":1,"ab":2}')).toEqual([
      expect.objectContaining({ field: 'ab', params: { key: 'ab' } }),
    ]);
    expect(ambiguities('{"a":{"x":1},"b":{"x":1}}')).toEqual([]);
  });

  it('reads a 2 MiB batch of rows in one pass, finding the one ambiguity in its last row', () => {
    const row = {
      body: { amount: 1234.5, description: 'x\\"'.repeat(40), concept: 'VAR' },
      to: { address: '2850590994009004181356' },
    };
    const rows = JSON.stringify(Array.from({ length: 10_000 }, () => row));
    const text = `${rows.slice(0, -1)},{"body":{"amount":1.000000000000000001}}]`;
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(ambiguities(text)).toEqual([
      expect.objectContaining({ field: '[10000].body.amount', rule: 'exact_number' }),
    ]);
  });
});

describe('readJsonText depth', () => {
  const deeper = (text: string) => !readJsonText(text).ok;

  it('counts objects and arrays, brackets inside strings (escaped quotes included) being text', () => {
    expect(deeper(`{"a":"${'[{'.repeat(20)}"}`)).toBe(false);
    expect(deeper(`{"a":"\\"${'['.repeat(20)}"}`)).toBe(false);
    expect(deeper(`{"a":"\\\\", "b":${'['.repeat(11)}${']'.repeat(11)}}`)).toBe(true);
    expect(deeper(`${'['.repeat(10)}${']'.repeat(10)}`.repeat(1000).replace(/\]\[/g, '],['))).toBe(true);
    expect(deeper(`[${`${'['.repeat(9)}${']'.repeat(9)}`.repeat(1000).replace(/\]\[/g, '],[')}]`)).toBe(false);
  });
});

describe('jsonField', () => {
  it('names a path as violations do', () => {
    expect(jsonField([])).toBe('');
    expect(jsonField(['body', 'amount'])).toBe('body.amount');
    expect(jsonField([3, 'body', 'amount'])).toBe('[3].body.amount');
    expect(jsonField(['eventTypes', 0])).toBe('eventTypes[0]');
  });
});
