// @aalis/plugin-otel: OpenTelemetry traces of the agent (GenAI semantic conventions) exported over OTLP/HTTP, as the
// standard OTEL_* environment variables say. With none of them set it registers nothing and loads no SDK.
import type {} from '@aalis/api-agent';
import { hooks } from '@aalis/api-hooks';
import { listModels, llm } from '@aalis/api-llm';
import type {} from '@aalis/api-tools';
import { config, definePlugin, events, lifecycle, logger, optional, services } from '@aalis/core';
import type { Tracer } from '@opentelemetry/api';
import { AgentTracer } from './agent-tracer.js';
import { otelConfigSchema } from './otel-config.js';
import { otelErrors } from './otel-errors.js';
import { decideTracing, type TracingDecision } from './otlp-environment.js';

export { AgentTracer, type AgentTracerOptions } from './agent-tracer.js';
export { AALIS, GEN_AI } from './genai-attributes.js';
export { otelConfigSchema, tracingWanted } from './otel-config.js';
export { otelErrors } from './otel-errors.js';
export { decideTracing, type OtlpProtocol, type TracingDecision } from './otlp-environment.js';

const VERSION = '0.1.0';

export interface OtelPluginOptions {
  /** A tracer the host already has (its own SDK, or an in-memory one in tests): used as is, the environment ignored. */
  tracer?: Tracer;
}

/** The plugin; `createOtelPlugin({ tracer })` for a host that runs its own OpenTelemetry SDK. */
export function createOtelPlugin({ tracer: given }: OtelPluginOptions = {}) {
  return definePlugin({
    name: '@aalis/plugin-otel',
    uses: { config, events, lifecycle, logger, hooks: optional(hooks), services },
    config: otelConfigSchema,
    async apply({ config, events, lifecycle, logger, hooks, services }) {
      let tracer = given;
      if (!tracer) {
        // Read at activation (the exporters read the same variables when they start).
        const env = process.env;
        const decision = decideTracing(env);
        if (!decision.enabled) {
          reportOff(decision, logger.use);
          return;
        }
        // Loaded only now: an unconfigured host never imports the SDK or the exporters.
        const { startTracing } = await import('./start-tracing.js');
        const started = startTracing({
          protocol: decision.protocol,
          version: VERSION,
          onExportFailure: (reason) =>
            logger.use.warn('traces could not be exported; they are dropped until the backend answers', {
              endpoint: endpointOf(env),
              reason,
            }),
        });
        lifecycle.use.onDispose(async () => {
          if (!(await started.shutdown()))
            logger.use.warn('the last traces could not be exported in time; they were dropped', {
              endpoint: endpointOf(env),
            });
        });
        tracer = started.tracer;
        logger.use.info('exporting traces over OTLP', {
          protocol: decision.protocol,
          endpoint: endpointOf(env),
        });
      }
      if (!hooks.available) {
        logger.use.warn('no hooks service: turns and model calls cannot be traced');
        return;
      }
      const agentTracer = new AgentTracer({
        tracer,
        captureContent: config.use.captureContent,
        agentName: config.use.agentName,
        describeModel: (ref) => {
          const info = listModels({ providers: services.use.providers(llm) }).find((model) => model.id === ref);
          return info ? { provider: info.provider, model: info.model } : undefined;
        },
      });
      hooks.use.middleware('agent:turn:before', (turn, next) => agentTracer.turn(turn, next));
      hooks.use.middleware('agent:llm:before', async (call, next) => {
        agentTracer.llmBefore(call);
        await next();
      });
      hooks.use.middleware('agent:llm:after', async (call, next) => {
        agentTracer.llmAfter(call);
        await next();
      });
      hooks.use.middleware('agent:turn:after', async (after, next) => {
        agentTracer.turnAfter(after);
        await next();
      });
      events.use.on('llm:usage', (event) => agentTracer.llmUsage(event));
      events.use.on('token:usage', (event) => agentTracer.tokenUsage(event));
      events.use.on('tool:execute', (event) => agentTracer.toolExecute(event));
    },
  });
}

function reportOff(
  decision: Extract<TracingDecision, { enabled: false }>,
  log: { error(m: string, f?: object): void },
) {
  if (decision.reason === 'unsupported-protocol') {
    const error = otelErrors.AALIS_OTEL_UNSUPPORTED_PROTOCOL({
      variable: decision.variable,
      protocol: decision.protocol,
    });
    log.error(error.message, { code: error.code });
  } else if (decision.reason === 'unsupported-exporter') {
    const error = otelErrors.AALIS_OTEL_UNSUPPORTED_EXPORTER({ exporter: decision.exporter });
    log.error(error.message, { code: error.code });
  }
}

/** The endpoint for the log line, without credentials or query (OTLP headers carry the keys, but be safe). */
function endpointOf(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://localhost:4318';
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(unparsable)';
  }
}

export default createOtelPlugin();
