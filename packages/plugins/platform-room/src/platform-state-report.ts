// An adapter's live connection state as the console lists it (admin.platforms): one report per adapter, registered
// with the platform service before connecting (withdrawn with the plugin), kept up to date as the adapter goes.
import type { PlatformService, PlatformState } from '@aalis/api-platform';
import type { AalisError, ServiceHandle } from '@aalis/core';

/** A state as an adapter sets it: `since` is the report's, `endpoint` defaults to the report's. */
export type PlatformStateUpdate = Omit<PlatformState, 'since' | 'endpoint'> & { endpoint?: string };

export interface PlatformStateReport {
  /** Where the adapter connects or listens, for people (no credentials): kept in every state set without one. */
  endpoint: string | undefined;
  current(): PlatformState;
  /** Sets the state; `since` moves only when the status does. */
  set(next: PlatformStateUpdate): void;
  /** A key of the adapter's config section as a state's `configKey` names it: `plugins.platform-qq.appId`. */
  configKey(key: string): string;
}

export interface PlatformStateReportOptions {
  /** The platform id, also its type (`PlatformInfo.id`/`type`). */
  id: string;
  /** The adapter's package name `@aalis/plugin-<name>` (the console links its settings at `plugins.<name>`). */
  plugin: string;
  endpoint?: string;
}

/** Reports `connecting` at once (where a platform service is there to list it) and returns the report to update. */
export function reportPlatformState(
  platform: ServiceHandle<PlatformService>,
  { id, plugin, endpoint }: PlatformStateReportOptions,
): PlatformStateReport {
  let state: PlatformState = { status: 'connecting', since: Date.now(), ...(endpoint ? { endpoint } : {}) };
  const report: PlatformStateReport = {
    endpoint,
    current: () => state,
    set(next) {
      const shown = next.endpoint ?? report.endpoint;
      state = {
        ...next,
        since: next.status === state.status ? state.since : Date.now(),
        ...(shown ? { endpoint: shown } : {}),
      };
    },
    configKey: (key) => `plugins.${plugin.replace(/^@aalis\/plugin-/, '')}.${key}`,
  };
  if (platform.available) platform.use.reportState({ id, type: id, plugin, current: () => state });
  return report;
}

/** A coded error as a state's `error`: its code and text, nothing else (no details, which may hold a secret). */
export function stateError(error: AalisError): { code: string; text: AalisError['text'] } {
  return { code: error.code, text: error.text };
}

/** A URL as a state's endpoint or a log line shows it: scheme, host and path (no credentials, query or fragment). */
export function shownEndpoint(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}
