// The owner's admin data: plugin states (app.states() through the plugins service), service preferences (the
// default model) read and written, and live logs (records from the host's log hub, secrets redacted).

import { resolveModelFor } from '@aalis/api-llm';
import type { LogRecord } from '@aalis/core';
import type { LogView, PreferencesView, ResultOf } from '@aalis/session-client';
import { consolePluginViews } from './console-config-plugins.js';
import { matchesLogFilter, readLogFilter } from './logs/log-filter.js';
import { badParam, optionalString, requireString } from './params.js';
import type { Handler } from './request-handler.js';
import type { Peer, ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

export const RECENT_LOGS = 200;

export const adminPlugins: Handler<'admin.plugins'> = (deps) => {
  if (!deps.plugins.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'plugins' });
  return { plugins: consolePluginViews(deps, deps.plugins.use.list()) };
};

/** The MCP servers' states (none when the MCP client does not run). */
export const adminMcp: Handler<'admin.mcp'> = (deps) => {
  if (!deps.mcp.available) return { servers: [] };
  return { servers: deps.mcp.use.servers().map((server) => ({ ...server, tools: [...server.tools] })) };
};

export function preferencesView(deps: ServerDeps): PreferencesView {
  const snapshot = deps.services.preferences();
  const resolved = resolveModelFor({ services: deps.services, consumer: '@aalis/plugin-agent' });
  return {
    global: { ...snapshot.global },
    plugins: structuredClone(snapshot.plugins),
    ...(resolved ? { defaultModel: { id: resolved.model.id, name: resolved.model.name } } : {}),
  };
}

export const adminPreferencesSet: Handler<'admin.preferences.set'> = (deps, _account, params, { type }) => {
  const service = requireString(type, params, 'service', 200);
  const plugin = optionalString(type, params, 'plugin', 200);
  const value = params.value;
  if (value !== null && (typeof value !== 'string' || value === '')) {
    badParam(type, 'value', 'preferenceValue', value);
  }
  const next = value === null ? undefined : value;
  if (plugin) deps.services.setPluginPreference(plugin, service, next);
  else deps.services.setGlobalPreference(service, next);
  return { preferences: preferencesView(deps) };
};

export function logView(record: LogRecord, redact: (text: string) => string): LogView {
  const view: LogView = { time: record.time, level: record.level, name: record.name, message: redact(record.message) };
  if (record.fields) view.fields = JSON.parse(redact(JSON.stringify(record.fields))) as Record<string, unknown>;
  return view;
}

export function logsSubscribe(
  deps: ServerDeps,
  peer: Peer | undefined,
  params: Record<string, unknown>,
  redact: (text: string) => string,
): ResultOf<'logs.subscribe'> {
  if (!peer) badParam('logs.subscribe', 'transport', 'socket', 'HTTP');
  const filter = readLogFilter('logs.subscribe', params);
  peer.logLevel = filter.level;
  peer.logFilter = filter;
  return {
    recent: deps.recentLogs
      .filter((record) => matchesLogFilter(record, filter))
      .map((record) => logView(record, redact)),
  };
}
