// Turns what went wrong on the wire into the llm contract's coded errors, naming the instance, the base URL and
// the model (and the proxy, by host:port), quoting the server's own message, and never the API key.
import { llmErrors } from '@aalis/api-llm';
import { AalisError, type I18n } from '@aalis/core';
import { classifyWireError, parseWireError, WireStreamError } from '@aalis/wire-openai';
import './catalogue.js';
import type { Timeouts } from './config-schema.js';
import { TransportError } from './http-exchange.js';
import { OverlongResponseError } from './output-budget.js';
import { ProxyError } from './proxy-error.js';

export interface ErrorContext {
  /** Provider instance id. */
  provider: string;
  baseUrl: string;
  /** `<instance>/<model>`. */
  model: string;
  /** Removes secrets (the API key, the proxy password) from texts that came from outside. */
  redact: (text: string) => string;
  /** The timeouts of this call (the instance's, with the model's overrides). */
  timeouts: Timeouts;
  t: I18n['t'];
}

export function httpError({
  status,
  statusText,
  body,
  url,
  retryAfterMs,
  available,
  context,
}: {
  status: number;
  statusText: string;
  body: string;
  url: string;
  retryAfterMs?: number;
  /** Lists the server's models, for a model-not-found error. */
  available: () => Promise<string[]>;
  context: ErrorContext;
}): Promise<AalisError> | AalisError {
  const wire = parseWireError({ body, fallback: statusText || context.t({ key: 'http-transport.no-message' }) });
  const providerMessage = asClause(context.redact(wire.message));
  const { provider, baseUrl, model } = context;
  const details: Record<string, unknown> = { status, providerCode: wire.code, providerType: wire.type };
  switch (classifyWireError({ status, error: wire })) {
    case 'auth':
      return llmErrors.AALIS_LLM_AUTH({ provider, baseUrl, status, providerMessage }, { statusCode: status, details });
    case 'model-not-found':
      return available().then((ids) =>
        llmErrors.AALIS_LLM_MODEL_NOT_FOUND(
          { provider, model, providerMessage, available: ids.join(', ') || context.t({ key: 'http-transport.none' }) },
          { statusCode: status, details: { ...details, available: ids } },
        ),
      );
    case 'endpoint-not-found':
      return llmErrors.AALIS_LLM_ENDPOINT_NOT_FOUND(
        { provider, url, providerMessage },
        { statusCode: status, details },
      );
    case 'context-too-long':
      return llmErrors.AALIS_LLM_CONTEXT_TOO_LONG({ model, providerMessage }, { statusCode: status, details });
    case 'rate-limited':
      return llmErrors.AALIS_LLM_RATE_LIMITED(
        { provider, model, providerMessage },
        { statusCode: status, details: retryAfterMs === undefined ? details : { ...details, retryAfterMs } },
      );
    case 'server':
      return llmErrors.AALIS_LLM_SERVER({ provider, model, status, providerMessage }, { statusCode: status, details });
    case 'bad-request':
      return llmErrors.AALIS_LLM_BAD_REQUEST(
        { provider, model, status, providerMessage },
        { statusCode: status, details },
      );
  }
}

/** Which timeout ran out, and the setting that sets it. */
const TIMEOUTS = {
  'connect-timeout': { timeout: 'connect', setting: 'connectMs', phase: 'http-transport.phase.connect' },
  'headers-timeout': { timeout: 'headers', setting: 'headersMs', phase: 'http-transport.phase.headers' },
  'idle-timeout': { timeout: 'idle', setting: 'idleMs', phase: 'http-transport.phase.idle' },
} as const;

export function transportError({
  error,
  context,
  outputStarted,
}: {
  error: TransportError;
  context: ErrorContext;
  outputStarted: boolean;
}): AalisError {
  const { provider, baseUrl, model, timeouts } = context;
  switch (error.kind) {
    case 'aborted':
      return llmErrors.AALIS_LLM_ABORTED({ model }, { details: { outputStarted } });
    case 'connect-timeout':
    case 'headers-timeout':
    case 'idle-timeout': {
      const which = TIMEOUTS[error.kind];
      return llmErrors.AALIS_LLM_TIMEOUT(
        {
          provider,
          baseUrl,
          ms: timeouts[which.setting],
          phase: context.t({ key: which.phase }),
          setting: which.setting,
        },
        {
          // A server that went silent after taking the request is not called again (a retry would double the stall).
          isRetryable: error.kind === 'connect-timeout',
          details: { timeout: which.timeout, outputStarted },
        },
      );
    }
    case 'incomplete':
      return llmErrors.AALIS_LLM_NETWORK(
        { provider, baseUrl, reason: context.t({ key: 'http-transport.stream.truncated' }) },
        { details: { outputStarted } },
      );
    case 'network': {
      const proxy = error.cause instanceof ProxyError ? error.cause : undefined;
      const untrusted = error.untrustedCertificate;
      const said = context.redact(error.code ? `${error.code}: ${error.message}` : error.message);
      let reason = said;
      if (proxy?.status !== undefined) {
        reason = context.t({
          key: 'http-transport.proxy.refused',
          params: { proxy: proxy.proxy, status: proxy.status },
        });
      } else if (proxy) {
        reason = context.t({
          key: 'http-transport.proxy.unreachable',
          params: { proxy: proxy.proxy, reason: context.redact(proxy.reason) },
        });
      } else if (untrusted) {
        reason = context.t({ key: 'http-transport.tls.untrusted', params: { reason: said } });
      }
      return llmErrors.AALIS_LLM_NETWORK(
        { provider, baseUrl, reason },
        {
          cause: error,
          // A certificate that was not accepted will not be accepted on a retry either.
          isRetryable: !untrusted,
          details: { outputStarted, socketCode: error.code, proxy: proxy?.proxy, proxyStatus: proxy?.status },
        },
      );
    }
  }
}

export function streamError({
  error,
  context,
  outputStarted,
}: {
  error: WireStreamError;
  context: ErrorContext;
  outputStarted: boolean;
}): AalisError {
  const { provider, baseUrl, model } = context;
  switch (error.kind) {
    case 'malformed-data':
      return llmErrors.AALIS_LLM_BAD_STREAM(
        {
          provider,
          model,
          problem: context.t({
            key: 'http-transport.stream.malformed',
            params: { line: context.redact(error.line ?? '') },
          }),
        },
        { details: { line: context.redact(error.line ?? ''), outputStarted } },
      );
    case 'error-event':
      return llmErrors.AALIS_LLM_SERVER(
        { provider, model, status: 200, providerMessage: asClause(context.redact(error.error?.message ?? '')) },
        { details: { providerCode: error.error?.code, outputStarted, inStream: true } },
      );
    case 'truncated':
      return llmErrors.AALIS_LLM_NETWORK(
        { provider, baseUrl, reason: context.t({ key: 'http-transport.stream.truncated' }) },
        { details: { outputStarted } },
      );
  }
}

/** A response cut because it ran far past the request's max_tokens (a broken server that would not stop). */
function overlongError({
  error,
  context,
  outputStarted,
}: {
  error: OverlongResponseError;
  context: ErrorContext;
  outputStarted: boolean;
}): AalisError {
  const { provider, model } = context;
  return llmErrors.AALIS_LLM_BAD_STREAM(
    {
      provider,
      model,
      problem: context.t({
        key: `http-transport.stream.overlong.${error.part}`,
        params: { limit: error.limit, maxTokens: error.maxTokens },
      }),
    },
    { details: { overlong: error.part, limit: error.limit, maxTokens: error.maxTokens, outputStarted } },
  );
}

/** Any failure of a call as the llm contract's coded error (an abort wins over whatever it caused). */
export function providerFailure({
  error,
  context,
  outputStarted,
  signal,
}: {
  error: unknown;
  context: ErrorContext;
  outputStarted: boolean;
  signal: AbortSignal | undefined;
}): AalisError {
  if (AalisError.isInstance(error)) return error;
  if (signal?.aborted) return llmErrors.AALIS_LLM_ABORTED({ model: context.model }, { details: { outputStarted } });
  if (error instanceof TransportError) return transportError({ error, context, outputStarted });
  if (error instanceof WireStreamError) return streamError({ error, context, outputStarted });
  if (error instanceof OverlongResponseError) return overlongError({ error, context, outputStarted });
  return transportError({ error: new TransportError('network', error), context, outputStarted });
}

/**
 * A server's message as a clause of ours: without its closing full stop, which the templates add ("….. Check the
 * apiKey" otherwise).
 */
function asClause(message: string): string {
  return message.replace(/[\s.。]+$/u, '');
}
