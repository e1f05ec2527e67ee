/**
 * The number of spans in an OTLP/HTTP trace export, protobuf (`ExportTraceServiceRequest`) or JSON: what the
 * tracing bench's receiver counts to check that every span it was sent arrived. The protobuf is walked by its
 * field numbers alone (resource_spans = 1 → scope_spans = 2 → spans = 2), without decoding a span.
 */
export function otlpSpanCount(body: Buffer, contentType: string | undefined): number {
  if (contentType?.startsWith('application/json')) {
    const request = JSON.parse(body.toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
    let spans = 0;
    for (const resource of request.resourceSpans ?? [])
      for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
    return spans;
  }
  let spans = 0;
  for (const resource of lengthDelimited(body, 1))
    for (const scope of lengthDelimited(resource, 2)) spans += lengthDelimited(scope, 2).length;
  return spans;
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

/** The length-delimited fields numbered `field` of the protobuf message `message`. */
function lengthDelimited(message: Buffer, field: number): Buffer[] {
  const found: Buffer[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (at >= message.length) throw new Error('a protobuf varint runs past the end of its message');
      const byte = message[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  };
  while (at < message.length) {
    const tag = varint();
    const wireType = tag % 8;
    if (wireType === WIRE_VARINT) varint();
    else if (wireType === WIRE_FIXED64) at += 8;
    else if (wireType === WIRE_FIXED32) at += 4;
    else if (wireType === WIRE_LENGTH_DELIMITED) {
      const length = varint();
      if (Math.floor(tag / 8) === field) found.push(message.subarray(at, at + length));
      at += length;
    } else throw new Error(`protobuf wire type ${wireType} is not one OTLP uses`);
  }
  if (at !== message.length) throw new Error('a protobuf field runs past the end of its message');
  return found;
}
