// The config section of one OpenAI-compatible provider instance.
import { type Infer, s } from '@aalis/core';

const thinkingSchema = s
  .object({
    levels: s.array(s.object({ id: s.string().nonEmpty(), name: s.string().nonEmpty() })),
    default: s.string().nonEmpty(),
  })
  .describe('The thinking levels the model offers and its default; leave out for a model that cannot be adjusted.');

// Defaults that keep slow reasoning models working (a stream may go on as long as it keeps sending something) and
// fail a dead server within about a minute: docs/decisions/provider-stall-timeouts.md.
export const DEFAULT_TIMEOUTS = { connectMs: 15_000, headersMs: 60_000, idleMs: 60_000 } as const;

const timeoutFields = {
  connectMs: 'To connect and send the request (TCP, TLS, a proxy tunnel, the request body). Retried.',
  headersMs:
    'From the request sent to the response headers: a server that took the request and says nothing. Not retried.',
  idleMs:
    'Longest silence between parts of a response (SSE comments count). Not retried; raise it for a model that thinks silently for longer.',
} as const;

/** Per model: each key overrides the instance's `timeouts`. */
export const modelTimeoutsSchema = s
  .object({
    connectMs: s.number().min(1).optional().describe(timeoutFields.connectMs),
    headersMs: s.number().min(1).optional().describe(timeoutFields.headersMs),
    idleMs: s.number().min(1).optional().describe(timeoutFields.idleMs),
  })
  .optional()
  .describe(
    "This model's timeouts, over the instance's (e.g. { headersMs: 600000, idleMs: 600000 } for a model that thinks silently).",
  );

export const pricesSchema = s
  .object({
    promptPerMillion: s.number().min(0),
    completionPerMillion: s.number().min(0),
    cachedPromptPerMillion: s.number().min(0).optional(),
    cacheWritePromptPerMillion: s
      .number()
      .min(0)
      .optional()
      .describe('Price of prompt tokens written to the cache (Anthropic); the prompt price when not given.'),
    currency: s.string().optional(),
  })
  .optional();

const modelSchema = s.object({
  id: s.string().nonEmpty().describe('The model id as the server knows it.'),
  name: s.string().optional().describe('Display name (default: the id).'),
  contextWindow: s.number().integer().min(1).optional(),
  maxOutputTokens: s.number().integer().min(1).optional(),
  capabilities: s.object({ tools: s.boolean().optional(), vision: s.boolean().optional() }).optional(),
  thinking: thinkingSchema.optional(),
  reasoningParam: s
    .object({
      field: s.string().nonEmpty().default('reasoning_effort'),
      values: s.record(s.unknown()).optional(),
    })
    .optional()
    .describe(
      'How a thinking level goes into the request: the field (dotted for nested, e.g. chat_template_kwargs.enable_thinking) and a value per level id (default: the id). Default: reasoning_effort.',
    ),
  maxTokensField: s.enum(['max_tokens', 'max_completion_tokens']).optional(),
  timeouts: modelTimeoutsSchema,
  sendReasoning: s
    .boolean()
    .optional()
    .describe('Send earlier reasoning back as reasoning_content (default true; some servers refuse it).'),
  prices: pricesSchema,
});

export const headersSchema = s
  .record(s.string())
  .default({})
  .describe('Extra request headers. Their values are treated as secrets: never shown in errors or logs.');

/**
 * The values of configured extra headers that errors and logs must not show: a key may travel in any header
 * (Authorization, api-key, x-api-key …). Values shorter than 8 characters (flags, versions) are left alone, as the
 * runtime does for MCP servers' headers.
 */
export function headerSecrets(headers: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.values(headers ?? {}).flatMap((value) => {
    if (typeof value !== 'string' || value.length < 8) return [];
    // A scheme-prefixed credential also shows without its scheme (a server quoting only the token).
    const token = /^(?:Bearer|Basic|Token)\s+(\S{8,})$/i.exec(value)?.[1];
    return token === undefined ? [value] : [value, token];
  });
}

export const proxySchema = s
  .string()
  .optional()
  .describe(
    'HTTP proxy for this endpoint: http://host:port or http://user:password@host:port (only http:// proxies). Unset: HTTPS_PROXY / HTTP_PROXY and NO_PROXY from the environment; "" connects directly even when the environment sets a proxy.',
  );

export const caFileSchema = s
  .string()
  .nonEmpty()
  .optional()
  .describe(
    'PEM file of extra CA certificates to trust for an https baseUrl (added to the default roots), e.g. the private CA of a self-hosted server. Relative to the working directory.',
  );

export const timeoutsSchema = s
  .object({
    connectMs: s.number().min(1).default(DEFAULT_TIMEOUTS.connectMs).describe(timeoutFields.connectMs),
    headersMs: s.number().min(1).default(DEFAULT_TIMEOUTS.headersMs).describe(timeoutFields.headersMs),
    idleMs: s.number().min(1).default(DEFAULT_TIMEOUTS.idleMs).describe(timeoutFields.idleMs),
  })
  .describe('How long a call may wait; each model can override them (models[].timeouts).');

export const retrySchema = s.object({
  maxRetries: s.number().integer().min(0).default(2),
  baseDelayMs: s.number().min(0).default(500),
  maxDelayMs: s.number().min(0).default(20_000).describe('Also the longest Retry-After that is waited for.'),
});

export const openAiConfigSchema = s.object({
  baseUrl: s.string().nonEmpty().describe('API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1.'),
  apiKey: s.string().widget('password').optional().describe('Sent as a Bearer token; never logged.'),
  priority: s.number().default(0).describe('Selection priority among llm providers (higher wins).'),
  models: s.array(modelSchema).default([]),
  fetchModels: s.boolean().default(true).describe('Also list the models the server offers (GET /models) at start.'),
  modelDefaults: s.object({
    contextWindow: s.number().integer().min(1).default(128_000),
    maxOutputTokens: s.number().integer().min(1).default(8_192),
    tools: s.boolean().default(true),
    vision: s.boolean().default(false),
  }),
  streamUsage: s.boolean().default(true).describe('Ask for usage in the stream (stream_options.include_usage).'),
  headers: headersSchema,
  proxy: proxySchema,
  caFile: caFileSchema,
  timeouts: timeoutsSchema,
  retry: retrySchema,
});

export type OpenAiConfig = Infer<typeof openAiConfigSchema>;
export type OpenAiModelConfig = OpenAiConfig['models'][number];
export type Timeouts = OpenAiConfig['timeouts'];
