import { otlpSpanCount } from './otlp-span-count';

/** A protobuf length-delimited field (lengths under 128 bytes). */
function field(number: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(number << 3) | 2, body.length]), body]);
}
/** A varint field (values under 128). */
function varint(number: number, value: number): Buffer {
  return Buffer.from([number << 3, value]);
}
/** A fixed64 field (a span's start time). */
function fixed64(number: number): Buffer {
  return Buffer.concat([Buffer.from([(number << 3) | 1]), Buffer.alloc(8, 7)]);
}

function span(name: string): Buffer {
  return Buffer.concat([field(1, Buffer.alloc(16, 1)), field(5, Buffer.from(name)), varint(6, 3), fixed64(7)]);
}

describe('otlpSpanCount', () => {
  it('counts the spans of every scope of every resource in a protobuf export, skipping the other fields', () => {
    const resource = field(1, field(1, Buffer.from('service.name')));
    const scope = field(1, field(1, Buffer.from('@giro/transfer-module')));
    const request = Buffer.concat([
      field(1, Buffer.concat([resource, field(2, Buffer.concat([scope, field(2, span('a')), field(2, span('b'))]))])),
      field(
        1,
        Buffer.concat([resource, field(2, Buffer.concat([scope, field(2, span('c'))])), field(3, Buffer.from('x'))]),
      ),
    ]);
    expect(otlpSpanCount(request, 'application/x-protobuf')).toBe(3);
  });

  it('counts the spans of a JSON export', () => {
    const body = { resourceSpans: [{ scopeSpans: [{ spans: [{}, {}] }, { spans: [{}] }] }, { scopeSpans: [] }] };
    expect(otlpSpanCount(Buffer.from(JSON.stringify(body)), 'application/json')).toBe(3);
  });

  it('refuses a protobuf message cut short', () => {
    const request = field(1, field(2, field(2, span('a'))));
    expect(() => otlpSpanCount(request.subarray(0, request.length - 3), 'application/x-protobuf')).toThrow(
      'runs past the end',
    );
  });
});
