// Starts the OpenTelemetry trace SDK with the standard OTLP/HTTP exporter for the chosen protocol. Imported only
// dynamically (by the plugin, when the environment asks for traces), so an unconfigured host never loads the SDK.
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { OtlpProtocol } from './otlp-environment.js';
import { reportingExporter } from './reporting-exporter.js';

export interface StartedTracing {
  tracer: Tracer;
  /**
   * Exports what is pending, then stops the exporter; resolves false when that took longer than SHUTDOWN_WAIT_MS
   * (a backend that is down: the exporter retries with backoff for about ten seconds, which would hold up exit).
   */
  shutdown(): Promise<boolean>;
}

/** How long stopping waits for the last batch. */
export const SHUTDOWN_WAIT_MS = 2_000;

export function startTracing({
  protocol,
  version,
  onExportFailure,
}: {
  protocol: OtlpProtocol;
  version: string;
  onExportFailure: (reason: string) => void;
}): StartedTracing {
  // The exporters read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION themselves; the
  // resource reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (service.name defaults to aalis).
  const exporter = reportingExporter(
    protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter(),
    onExportFailure,
  );
  const resource = resourceFromAttributes({ 'service.name': 'aalis', 'service.version': version }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  // The batch processor reads OTEL_BSP_* (delay, queue and batch sizes).
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  // Registered globally (with the async-hooks context manager) so other instrumentation nests under our spans.
  provider.register();
  return {
    tracer: provider.getTracer('@aalis/plugin-otel', version),
    shutdown: () =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), SHUTDOWN_WAIT_MS);
        timer.unref();
        provider.shutdown().then(
          () => {
            clearTimeout(timer);
            resolve(true);
          },
          () => {
            clearTimeout(timer);
            resolve(false);
          },
        );
      }),
  };
}
