// Test-only: decodes an OTLP ExportTraceServiceRequest in protobuf form (opentelemetry/proto trace/v1 field numbers)
// with a small wire-format reader, so the receiver checks the bytes the real exporter sends.
import type { ReceivedSpan } from './otlp-receiver.js';

interface Field {
  number: number;
  wire: number;
  /** varint / fixed values. */
  value?: bigint;
  /** length-delimited payloads. */
  bytes?: Uint8Array;
}

function readFields(buffer: Uint8Array): Field[] {
  const fields: Field[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[offset++];
      if (byte === undefined) throw new Error('protobuf: truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const fixed = (size: number): bigint => {
    let result = 0n;
    for (let index = size - 1; index >= 0; index--) result = (result << 8n) | BigInt(buffer[offset + index]!);
    offset += size;
    return result;
  };
  while (offset < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ number, wire, value: varint() });
    else if (wire === 1) fields.push({ number, wire, value: fixed(8) });
    else if (wire === 5) fields.push({ number, wire, value: fixed(4) });
    else if (wire === 2) {
      const length = Number(varint());
      fields.push({ number, wire, bytes: buffer.subarray(offset, offset + length) });
      offset += length;
    } else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
  return fields;
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const all = (fields: Field[], number: number) => fields.filter((field) => field.number === number);
const one = (fields: Field[], number: number) => fields.find((field) => field.number === number);

function anyValue(bytes: Uint8Array): unknown {
  const field = readFields(bytes)[0];
  if (!field) return undefined;
  switch (field.number) {
    case 1:
      return text(field.bytes);
    case 2:
      return field.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.value!));
    case 4: {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, field.value!, true);
      return view.getFloat64(0, true);
    }
    case 5:
      return all(readFields(field.bytes!), 1).map((value) => anyValue(value.bytes!));
    default:
      return hex(field.bytes);
  }
}

function attributes(fields: Field[], number: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const entry of all(fields, number)) {
    const pair = readFields(entry.bytes!);
    const value = one(pair, 2);
    result[text(one(pair, 1)?.bytes)] = value ? anyValue(value.bytes!) : undefined;
  }
  return result;
}

export function decodeTraceRequestProtobuf(
  body: Uint8Array,
): Array<{ resource: Record<string, unknown>; spans: ReceivedSpan[] }> {
  return all(readFields(body), 1).map((resourceSpans) => {
    const fields = readFields(resourceSpans.bytes!);
    const resource = one(fields, 1);
    const spans: ReceivedSpan[] = [];
    for (const scopeSpans of all(fields, 2)) {
      const scopeFields = readFields(scopeSpans.bytes!);
      const scope = text(one(readFields(one(scopeFields, 1)?.bytes ?? new Uint8Array()), 1)?.bytes);
      for (const spanField of all(scopeFields, 2)) {
        const span = readFields(spanField.bytes!);
        const status = readFields(one(span, 15)?.bytes ?? new Uint8Array());
        spans.push({
          scope,
          traceId: hex(one(span, 1)?.bytes),
          spanId: hex(one(span, 2)?.bytes),
          parentSpanId: hex(one(span, 4)?.bytes),
          name: text(one(span, 5)?.bytes),
          kind: Number(one(span, 6)?.value ?? 0n),
          attributes: attributes(span, 9),
          status: { code: Number(one(status, 3)?.value ?? 0n), message: text(one(status, 2)?.bytes) },
        });
      }
    }
    return { resource: attributes(resource ? readFields(resource.bytes!) : [], 1), spans };
  });
}
