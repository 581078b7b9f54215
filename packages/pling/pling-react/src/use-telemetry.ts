// The runtime's telemetry (model and tool calls, tokens, cost, durations, retries, error rate) — the spec's
// "injected telemetry" for React, which has no built-in inspector.
import type { TelemetrySnapshot } from '@plingjs/agent';
import { useAgentRuntime } from './use-agent-runtime.js';
import { useObservable } from './use-observable.js';

/** The telemetry snapshot, re-rendering on every change; undefined until the runtime exists. */
export function useTelemetry(): TelemetrySnapshot | undefined {
  return useObservable(useAgentRuntime()?.telemetry);
}
