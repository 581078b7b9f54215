// The provider-neutral HTTP layer of this package, for other llm providers over HTTP (@aalis/plugin-llm-anthropic):
// one implementation of connect/headers/idle timeouts, retries with backoff and Retry-After, HTTP proxies (forwarding
// and CONNECT tunnels, NO_PROXY), extra CAs, abort, runaway-response cuts, and the mapping of all of it to the llm
// contract's coded errors. Exported as `@aalis/plugin-llm-openai/http-transport`.
import './catalogue.js';

export { type BaseUrlProblem, type EndpointUrl, maskUrlCredentials, parseBaseUrl } from './base-url.js';
export {
  caFileSchema,
  DEFAULT_TIMEOUTS,
  headerSecrets,
  headersSchema,
  modelTimeoutsSchema,
  pricesSchema,
  proxySchema,
  retrySchema,
  type Timeouts,
  timeoutsSchema,
} from './config-schema.js';
export { createAgents, type HttpAgents, HttpExchange, TransportError } from './http-exchange.js';
export { linkSignals } from './link-signals.js';
export { abortedError, backOff, openWithRetries, type RetryReport } from './open-with-retries.js';
export { OutputBudget } from './output-budget.js';
export { type ErrorContext, providerFailure } from './provider-errors.js';
export { type ProxySettings, resolveProxy } from './proxy-settings.js';
export { type RetrySettings, retryDelay } from './retry-delay.js';
export { loadTrustedCertificates } from './trusted-certificates.js';
