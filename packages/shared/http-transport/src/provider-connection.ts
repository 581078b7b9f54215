// What every client of one HTTP model endpoint sets up the same way: the proxy (the `proxy` key or the environment),
// keep-alive agents that trust the extra CAs of `caFile`, and the secrets no text that leaves it may show (the
// caller's key, URL and header credentials, and the proxy's own). Built at construction, so a broken proxy or CA file
// fails activation rather than the first call.
import type { I18n, Logger } from '@aalis/core';
import type { Timeouts } from './config-schema.js';
import { createAgents, type HttpAgents } from './http-exchange.js';
import { logProxyInUse } from './log-proxy.js';
import type { ErrorContext } from './provider-errors.js';
import { type ProxyEnvironment, resolveProxy } from './proxy-settings.js';
import { loadTrustedCertificates } from './trusted-certificates.js';

export interface ProviderConnectionOptions {
  /** Names the endpoint in errors and logs (the plugin instance). */
  plugin: string;
  /** The API root requests go to, without the credentials a configured URL may carry. */
  baseUrl: string;
  /** The section's transport keys: `proxy` (unset reads the environment, "" connects directly) and `caFile`. */
  config: { proxy?: string | undefined; caFile?: string | undefined };
  /** The caller's secrets (API key, URL credentials, header values); the proxy's are added. */
  secrets: readonly (string | undefined)[];
  env?: ProxyEnvironment;
  /** Given by a chat provider: the proxy in use is logged once, in the reader's language. */
  announce?: { logger: Pick<Logger, 'info'>; i18n: Pick<I18n, 't'> };
}

export class ProviderConnection {
  readonly agents: HttpAgents;
  readonly baseUrl: string;
  private readonly plugin: string;
  private readonly secrets: string[];

  constructor({ plugin, baseUrl, config, secrets, env, announce }: ProviderConnectionOptions) {
    this.plugin = plugin;
    this.baseUrl = baseUrl;
    const proxy = resolveProxy({ baseUrl, configured: config.proxy, env: env ?? process.env, plugin });
    this.agents = createAgents({ proxy, ca: loadTrustedCertificates({ caFile: config.caFile, plugin }) });
    this.secrets = [...secrets, proxy?.password, proxy?.authorization?.slice('Basic '.length)].filter(
      (secret): secret is string => Boolean(secret),
    );
    if (proxy && announce) logProxyInUse({ proxy, baseUrl, provider: plugin, ...announce });
  }

  /** The text with every secret replaced by `***`. */
  redact(text: string): string {
    return this.secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
  }

  /** What the coded errors of one call name: this endpoint, the model, the call's timeouts; texts redacted. */
  errorContext({ model, timeouts, t }: { model: string; timeouts: Timeouts; t: I18n['t'] }): ErrorContext {
    return { timeouts, provider: this.plugin, baseUrl: this.baseUrl, model, redact: (text) => this.redact(text), t };
  }

  /** Closes idle keep-alive connections. */
  destroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
