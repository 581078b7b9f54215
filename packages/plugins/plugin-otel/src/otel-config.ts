// The config section `plugins.otel`, and whether the environment asks for tracing at all — light enough for a host
// to read without importing the plugin (the runtime loads the plugin only when tracingWanted says so).
import { s } from '@aalis/core';
import { decideTracing } from './otlp-environment.js';

export const otelConfigSchema = s
  .object({
    captureContent: s
      .boolean()
      .default(false)
      .describe(
        'Record message content in the traces: prompts and replies (gen_ai.input.messages / gen_ai.output.messages), tool arguments and results. Off: only names, ids, models, token counts and outcomes.',
      ),
    agentName: s.string().nonEmpty().default('aalis').describe('gen_ai.agent.name of the invoke_agent spans.'),
  })
  .describe(
    'OpenTelemetry traces (invoke_agent, chat, execute_tool). Exported when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_TRACES_EXPORTER=otlp) is set; OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf (default) or http/json, OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS as usual.',
  );

/**
 * Whether the plugin has anything to do in this environment: tracing is on, or a variable asks for an exporter or a
 * protocol the plugin refuses (it reports that as an error when it starts). Unset, disabled or `none`: nothing.
 */
export function tracingWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  const decision = decideTracing(env);
  return decision.enabled || decision.reason === 'unsupported-protocol' || decision.reason === 'unsupported-exporter';
}
