// Test-only: a local OTLP/HTTP trace receiver (POST /v1/traces) that decodes both bodies the standard exporters send,
// application/json and application/x-protobuf (gzip too), into one span shape tests can assert on.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeTraceRequestProtobuf } from './otlp-protobuf.js';

export interface ReceivedSpan {
  scope: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client … */
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
}

export interface ReceivedExport {
  contentType: string;
  headers: IncomingMessage['headers'];
  resource: Record<string, unknown>;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> — what OTEL_EXPORTER_OTLP_ENDPOINT takes (the exporter appends /v1/traces). */
  url: string;
  exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  /** Answers every export with this status from now on (400: refused, not retried by exporters); undefined: accept. */
  refuse(status: number | undefined): void;
  /** Resolves once at least `count` spans arrived. */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}

function jsonValue(value: JsonAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.key, jsonValue(pair.value)]));
}

/** The parts of an OTLP/JSON ExportTraceServiceRequest the receiver reads. */
interface JsonTraceRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: JsonKeyValue[];
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

function decodeJson(body: JsonTraceRequest): Array<{ resource: Record<string, unknown>; spans: ReceivedSpan[] }> {
  return (body.resourceSpans ?? []).map((resourceSpans) => ({
    resource: jsonAttributes(resourceSpans.resource?.attributes),
    spans: (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map(
        (span): ReceivedSpan => ({
          scope: scopeSpans.scope?.name ?? '',
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
        }),
      ),
    ),
  }));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const waiters = new Set<() => void>();
  const spans = () => exports.flatMap((received) => received.spans);
  let refusal: number | undefined;
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      try {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        if (refusal !== undefined) {
          response.writeHead(refusal, { 'content-type': 'text/plain' }).end('refused by the test receiver');
          return;
        }
        let body = Buffer.concat(parts);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const contentType = request.headers['content-type'] ?? '';
        const decoded = contentType.includes('json')
          ? decodeJson(JSON.parse(body.toString('utf8')) as JsonTraceRequest)
          : decodeTraceRequestProtobuf(body);
        for (const { resource, spans } of decoded)
          exports.push({ contentType, headers: request.headers, resource, spans });
        response.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : contentType });
        // An empty ExportTraceServiceResponse: {} in JSON, no bytes in protobuf.
        response.end(contentType.includes('json') ? '{}' : undefined);
        for (const wake of waiters) wake();
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans,
    refuse: (status) => {
      refusal = status;
    },
    waitForSpans(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (spans().length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`only ${spans().length} of ${count} spans arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
