import { describe, expect, it } from 'vitest';
import { decideTracing } from './otlp-environment.js';

describe('decideTracing (the standard OTEL_* variables)', () => {
  it('is off when nothing is configured', () => {
    expect(decideTracing({})).toEqual({ enabled: false, reason: 'not-configured' });
    expect(decideTracing({ OTEL_SERVICE_NAME: 'aalis', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
      enabled: false,
      reason: 'not-configured',
    });
  });

  it('is on with an endpoint, http/protobuf by default, the traces variables winning', () => {
    expect(decideTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
    });
    expect(
      decideTracing({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ enabled: true, protocol: 'http/json' });
    expect(decideTracing({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({ enabled: true, protocol: 'http/protobuf' });
  });

  it('is off when disabled or the exporter is none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(decideTracing({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toMatchObject({ reason: 'disabled' });
    expect(decideTracing({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({ reason: 'exporter-none' });
  });

  it('names what it cannot follow: grpc and other exporters', () => {
    expect(
      decideTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toEqual({
      enabled: false,
      reason: 'unsupported-protocol',
      variable: 'OTEL_EXPORTER_OTLP_PROTOCOL',
      protocol: 'grpc',
    });
    expect(decideTracing({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual({
      enabled: false,
      reason: 'unsupported-exporter',
      exporter: 'zipkin',
    });
  });
});
