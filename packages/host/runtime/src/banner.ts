// The lines shown when Aalis has started: version, model, data directory, session; the offline-model notice with
// how to configure a real one; plugins that did not start; how to use the terminal.
import type { ModelInfo } from '@aalis/api-llm';
import { type Locale, type PluginStateInfo, textRef, translate } from '@aalis/core';

export interface BannerFacts {
  version: string;
  model: ModelInfo | undefined;
  dataDir: string;
  session: string | undefined;
  configFile: string;
  created: boolean;
  /** Plugin instances that are not active. */
  inactive: readonly PluginStateInfo[];
  interactive: boolean;
  /** The configured OpenAI-compatible endpoint, if any. */
  endpoint: string | undefined;
  /** The plugin instance that serves it (its error, if it failed, already says why no model is listed). */
  endpointPlugin?: string;
  /** A one-time WebUI login link, when the session server runs. */
  webuiLink?: string;
  /** How long that link stays valid. */
  linkTtlMinutes?: number;
}

export interface BannerLine {
  text: string;
  tone: 'info' | 'warn';
}

export function bannerLines(facts: BannerFacts, locale: Locale): BannerLine[] {
  const t = (key: string, params?: Record<string, string | number>) => translate(textRef(key, params), locale);
  const info = (text: string): BannerLine => ({ text, tone: 'info' });
  const warn = (text: string): BannerLine => ({ text, tone: 'warn' });
  const model = facts.model
    ? t('runtime.banner.model', { id: facts.model.id, name: facts.model.name })
    : t('runtime.banner.noModel');
  const lines = [
    info(
      t('runtime.banner.title', {
        version: facts.version,
        model,
        dataDir: facts.dataDir,
        session: facts.session ?? '-',
      }),
    ),
  ];
  if (facts.created) lines.push(info(t('runtime.banner.created', { file: facts.configFile })));
  const endpointFailed = facts.inactive.some((state) => state.id === facts.endpointPlugin && state.state === 'error');
  if (!facts.model && facts.endpoint) {
    if (!endpointFailed) lines.push(warn(t('runtime.banner.endpointEmpty', { baseUrl: facts.endpoint })));
  } else if (!facts.model) {
    // No endpoint and the offline model turned off: nothing will answer (not "replies come from the offline model").
    lines.push(warn(t('runtime.banner.noModelAtAll', { file: facts.configFile })));
  } else if (facts.model.offline) {
    lines.push(warn(t('runtime.banner.offline', { file: facts.configFile })));
    lines.push(info(t('runtime.banner.offlineTools')));
  }
  for (const state of facts.inactive) {
    if (state.state === 'error') {
      const reason = state.error?.localized(locale) ?? '?';
      // The core's errors (start failed, a config field) already begin with the plugin's name: not said twice.
      const named = state.error?.details.plugin === state.id;
      lines.push(warn(named ? `⚠ ${reason}` : t('runtime.plugin.error', { plugin: state.id, reason })));
    } else {
      lines.push(warn(t('runtime.plugin.pending', { plugin: state.id, missing: state.missing.join(', ') || '?' })));
    }
  }
  if (facts.webuiLink) {
    lines.push(info(t('runtime.banner.webui', { link: facts.webuiLink, minutes: facts.linkTtlMinutes ?? 15 })));
  }
  if (facts.interactive) lines.push(info(t('runtime.banner.hint')));
  return lines;
}
