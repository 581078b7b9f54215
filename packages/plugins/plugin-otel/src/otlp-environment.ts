// Whether traces are exported, decided from the standard OpenTelemetry environment variables alone (the SDK's own
// names and defaults), so that nothing of the SDK is loaded when they say nothing.

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type TracingDecision =
  | { enabled: false; reason: 'disabled' | 'not-configured' | 'exporter-none' }
  | { enabled: true; protocol: OtlpProtocol }
  | { enabled: false; reason: 'unsupported-protocol'; variable: string; protocol: string }
  | { enabled: false; reason: 'unsupported-exporter'; exporter: string };

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

/**
 * Tracing is on when an OTLP endpoint is named (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or
 * OTEL_TRACES_EXPORTER asks for otlp; OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off. The protocol
 * is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf (the specification's
 * default). gRPC is not offered: it would pull in a native HTTP/2 stack for one exporter.
 */
export function decideTracing(env: Readonly<Record<string, string | undefined>>): TracingDecision {
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { enabled: false, reason: 'disabled' };
  const exporters = (value('OTEL_TRACES_EXPORTER') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes('none')) return { enabled: false, reason: 'exporter-none' };
  const other = exporters.find((name) => name !== 'otlp');
  if (other !== undefined) return { enabled: false, reason: 'unsupported-exporter', exporter: other };
  const endpoint = value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint === undefined && exporters.length === 0) return { enabled: false, reason: 'not-configured' };
  for (const variable of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = value(variable);
    if (protocol === undefined) continue;
    if (!PROTOCOLS.includes(protocol)) return { enabled: false, reason: 'unsupported-protocol', variable, protocol };
    return { enabled: true, protocol: protocol as OtlpProtocol };
  }
  return { enabled: true, protocol: 'http/protobuf' };
}
