import { parseErrorBody } from './error-body';

const parse = (text: string) => parseErrorBody(Buffer.from(text));

describe('parseErrorBody', () => {
  it.each([
    [
      '{"code":"INSUFFICIENT_FUNDS","message":"Saldo insuficiente"}',
      { code: 'INSUFFICIENT_FUNDS', message: 'Saldo insuficiente' },
    ],
    ['{"error":"invalid_client","error_description":"bad secret"}', { code: 'invalid_client', message: 'bad secret' }],
    ['{"error":{"code":"E42","message":"nested"}}', { code: 'E42', message: 'nested' }],
    ['{"errors":[{"code":"E1","message":"first"},{"code":"E2"}]}', { code: 'E1', message: 'first' }],
    ['{"code":1234}', { code: '1234' }],
    ['{"type":"about:blank","title":"Bad Request","detail":"amount too large"}', { message: 'amount too large' }],
    ['{"unrelated":true}', {}],
    ['[1,2]', { message: '[1,2]' }],
    ['<html><head><title> 502 Bad\n Gateway </title></head></html>', { message: '502 Bad Gateway' }],
    ['<html><body>no title</body></html>', {}],
    ['Service   temporarily\nunavailable', { message: 'Service temporarily unavailable' }],
    ['{"code": "truncated', { message: '{"code": "truncated' }],
    ['', {}],
    ['   ', {}],
  ])('%s', (text, expected) => {
    expect(parse(text)).toEqual(expected);
  });

  it('cuts long codes and messages short', () => {
    const parsed = parse(JSON.stringify({ code: 'C'.repeat(500), message: 'm'.repeat(5000) }));

    expect(parsed.code).toHaveLength(100);
    expect(parsed.message).toHaveLength(300);
    expect(parsed.message?.endsWith('…')).toBe(true);
  });
});
