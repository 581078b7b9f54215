// Which proxy one provider instance uses: the configured `proxy` (an empty string means none, whatever the
// environment says), else the environment as curl reads it — https_proxy/HTTPS_PROXY for an https base URL,
// http_proxy/HTTP_PROXY for http (lower case first; empty counts as unset), unless NO_PROXY exempts the host or the
// host is loopback (a model server on this machine is never reached through an environment proxy, as in Go).
import { isLoopbackHost, isNoProxyHost } from './no-proxy.js';
import { transportErrors } from './transport-errors.js';

export interface ProxySettings {
  /** Host name or IP address (an IPv6 address without brackets). */
  host: string;
  port: number;
  /** `Basic …` for the Proxy-Authorization header, when the URL carries credentials. */
  authorization?: string;
  /** The password, so that it can be removed from any text that leaves the provider. */
  password?: string;
  /** `config`, or the name of the environment variable. */
  source: string;
  /** `host:port`: what logs and errors show (never the credentials). */
  display: string;
}

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

export function resolveProxy({
  baseUrl,
  configured,
  env,
  plugin,
}: {
  baseUrl: string;
  configured: string | undefined;
  env: ProxyEnvironment;
  /** The instance id, for errors. */
  plugin: string;
}): ProxySettings | undefined {
  if (configured !== undefined) {
    return configured.trim() === '' ? undefined : parseProxyUrl({ text: configured, source: 'proxy', plugin });
  }
  let target: URL;
  try {
    target = new URL(baseUrl);
  } catch {
    return undefined; // the call itself reports a broken baseUrl
  }
  if (isLoopbackHost(target.hostname)) return undefined;
  const https = target.protocol === 'https:';
  const source = (https ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']).find(
    (name) => (env[name] ?? '').trim() !== '',
  );
  if (source === undefined) return undefined;
  const port = target.port === '' ? (https ? 443 : 80) : Number(target.port);
  const noProxy = env.no_proxy?.trim() || env.NO_PROXY || '';
  if (isNoProxyHost({ host: target.hostname, port, noProxy })) return undefined;
  return parseProxyUrl({ text: env[source]!, source, plugin });
}

function parseProxyUrl({ text, source, plugin }: { text: string; source: string; plugin: string }): ProxySettings {
  const trimmed = text.trim();
  // Like curl, a proxy without a scheme is an http proxy.
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (url?.protocol !== 'http:' || url.hostname === '') {
    throw transportErrors.AALIS_LLM_OPENAI_PROXY_UNSUPPORTED({ plugin, source, received: withoutCredentials(trimmed) });
  }
  const port = url.port === '' ? 80 : Number(url.port);
  const settings: ProxySettings = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    source: source === 'proxy' ? 'config' : source,
    display: `${url.hostname}:${port}`,
  };
  if (url.username !== '' || url.password !== '') {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    settings.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    if (password !== '') settings.password = password;
  }
  return settings;
}

/** A proxy URL fit to show: `scheme://***@host…` in place of any credentials. */
function withoutCredentials(text: string): string {
  return text.replace(/^([^/]*\/\/)?[^@/]*@/, (_whole, scheme: string | undefined) => `${scheme ?? ''}***@`);
}
