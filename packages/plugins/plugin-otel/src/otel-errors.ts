// The coded errors of the OpenTelemetry plugin: environment variables it cannot follow.
import { defineErrors } from '@aalis/core';

export const otelErrors = defineErrors({
  AALIS_OTEL_UNSUPPORTED_PROTOCOL: {
    en: '{variable}={protocol} is not supported, so no traces are exported. Set it to http/protobuf or http/json (every OTLP backend accepts OTLP over HTTP; for Jaeger and the Collector it is port 4318).',
    'zh-CN':
      '不支持 {variable}={protocol}，因此不导出任何追踪。请设为 http/protobuf 或 http/json（所有 OTLP 后端都接受 HTTP 上的 OTLP;Jaeger 与 Collector 的端口是 4318）。',
    isRetryable: false,
  },
  AALIS_OTEL_UNSUPPORTED_EXPORTER: {
    en: 'OTEL_TRACES_EXPORTER={exporter} is not supported, so no traces are exported. Use otlp (with OTEL_EXPORTER_OTLP_ENDPOINT) or none.',
    'zh-CN':
      '不支持 OTEL_TRACES_EXPORTER={exporter}，因此不导出任何追踪。请使用 otlp（配合 OTEL_EXPORTER_OTLP_ENDPOINT）或 none。',
    isRetryable: false,
  },
});
