// @aalis/http-transport: the HTTP layer every model provider shares (@aalis/plugin-llm-openai,
// @aalis/plugin-llm-anthropic, and clients for embeddings, transcription or speech): one implementation of
// connect/headers/idle timeouts, retries with backoff and Retry-After, HTTP proxies (forwarding and CONNECT tunnels,
// NO_PROXY), extra CAs, abort, runaway-response cuts, and the mapping of all of it to the llm contract's coded errors.
// The light parts a configuration check needs without opening a socket are subpaths of their own: `./base-url`,
// `./config-schema`, `./proxy-settings`.
import './catalogue.js';

export { maskUrlCredentials, parseBaseUrl } from './base-url.js';
export { headerSecrets, type Timeouts } from './config-schema.js';
export { createAgents, type HttpAgents, HttpExchange, TransportError } from './http-exchange.js';
export { linkSignals, SignalLinker } from './link-signals.js';
export { logProxyInUse } from './log-proxy.js';
export { ModelEndpoint, type ModelEndpointConfig, type ModelEndpointOptions } from './model-endpoint.js';
export { abortedError, backOff, backOffBodyFailure, openWithRetries, type RetryReport } from './open-with-retries.js';
export { OutputBudget } from './output-budget.js';
export { type ProbeProvider, type ProbeRequest, probeSettings } from './probe-settings.js';
export { ProviderConnection, type ProviderConnectionOptions } from './provider-connection.js';
export { type ErrorContext, providerFailure } from './provider-errors.js';
export { type ProxySettings, resolveProxy } from './proxy-settings.js';
export { retryDelay } from './retry-delay.js';
export { loadTrustedCertificates } from './trusted-certificates.js';
