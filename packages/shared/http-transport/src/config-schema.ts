// The config fragments every HTTP model provider's section shares (timeouts, retries, proxy, CA file, extra headers,
// prices), so each provider documents the same keys with the same words.
import { type Infer, s } from '@aalis/core';

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

export type Timeouts = Infer<typeof timeoutsSchema>;

/** The keys every chat provider's section ends with, in this order: extra headers, proxy, CA file, timeouts, retries. */
export const connectionFields = {
  headers: headersSchema,
  proxy: proxySchema,
  caFile: caFileSchema,
  timeouts: timeoutsSchema,
  retry: retrySchema,
};

/** The key of an OpenAI-compatible endpoint (embeddings, transcription, speech) that a local server does without. */
export const bearerKeySchema = s
  .string()
  .optional()
  .describe('Sent as Authorization: Bearer; a secret, never logged. Omit for a local server.');
