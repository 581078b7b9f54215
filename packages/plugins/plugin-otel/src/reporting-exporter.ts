// Wraps the OTLP exporter so a failed export is reported in our log (once, then again only after a success),
// instead of the SDK's silent diagnostics: a backend that is down or refuses the headers gets one clear line.
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

export function reportingExporter(inner: SpanExporter, onFailure: (reason: string) => void): SpanExporter {
  let failing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      inner.export(spans, (result) => {
        // ExportResultCode.FAILED is 1 (the enum lives in @opentelemetry/core, not imported at run time for it).
        if (result.code === 1) {
          if (!failing) onFailure(result.error?.message ?? 'export failed');
          failing = true;
        } else failing = false;
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush!() } : {}),
  };
}
