// The one line a provider logs at start when its calls go through a proxy: which proxy, for which endpoint, and
// where the setting came from (the config key or an environment variable), in the reader's language.
import type { I18n, Logger } from '@aalis/core';
import './catalogue.js';
import type { ProxySettings } from './proxy-settings.js';

export function logProxyInUse({
  proxy,
  baseUrl,
  provider,
  logger,
  i18n,
}: {
  proxy: ProxySettings;
  baseUrl: string;
  provider: string;
  logger: Pick<Logger, 'info'>;
  i18n: Pick<I18n, 't'>;
}): void {
  const source =
    proxy.source === 'config'
      ? i18n.t({ key: 'http-transport.proxy.from-config' })
      : i18n.t({ key: 'http-transport.proxy.from-env', params: { name: proxy.source } });
  logger.info(i18n.t({ key: 'http-transport.proxy.in-use', params: { proxy: proxy.display, baseUrl, source } }), {
    provider,
    proxy: proxy.display,
    source: proxy.source,
  });
}
