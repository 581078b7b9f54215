// @plingjs/otel: the opt-in OpenTelemetry bridge for Pling (the host page supplies the tracer and its exporter).
export { createPlingOtelBridge, type PlingOtelBridge, type PlingOtelBridgeOptions } from './otel-bridge.js';
