// Which log records an owner asked for (logs.subscribe, logs.query): at least a level, from a plugin (its logger
// name or a name under it), about a session or a turn (the record's sessionId / turnId field, or the id named in
// its message, as several plugins write `session=<id>` into the line).
import { type LogRecord, levelAtLeast } from '@aalis/core';
import type { LogFilter } from '@aalis/session-client';
import { badParam, optionalString } from '../params.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** The filter as the server keeps it (the level always set). */
export interface ActiveLogFilter {
  level: LogRecord['level'];
  plugin?: string;
  sessionId?: string;
  turnId?: string;
}

export function readLogFilter(type: string, params: Record<string, unknown>): ActiveLogFilter {
  const level = optionalString(type, params, 'level') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    badParam(type, 'level', 'oneOf', level, { values: LOG_LEVELS.join(', ') });
  }
  const filter: ActiveLogFilter = { level: level as LogRecord['level'] };
  const plugin = optionalString(type, params, 'plugin', 200);
  const sessionId = optionalString(type, params, 'sessionId', 500);
  const turnId = optionalString(type, params, 'turnId', 200);
  if (plugin) filter.plugin = plugin;
  if (sessionId) filter.sessionId = sessionId;
  if (turnId) filter.turnId = turnId;
  return filter;
}

function mentions(record: LogRecord, field: 'sessionId' | 'turnId', id: string): boolean {
  const value = record.fields?.[field];
  if (typeof value === 'string') return value === id;
  return record.message.includes(id);
}

export function matchesLogFilter(record: LogRecord, filter: ActiveLogFilter | LogFilter): boolean {
  if (!levelAtLeast(record.level, filter.level ?? 'info')) return false;
  if (filter.plugin && record.name !== filter.plugin && !record.name.startsWith(`${filter.plugin}:`)) {
    // Plugin names are matched whole, or as the prefix of a child logger (`name:child`); a short name such as
    // `session-server` also matches `@aalis/plugin-session-server`.
    if (!record.name.endsWith(`-${filter.plugin}`) && !record.name.endsWith(`/${filter.plugin}`)) return false;
  }
  if (filter.sessionId && !mentions(record, 'sessionId', filter.sessionId)) return false;
  if (filter.turnId && !mentions(record, 'turnId', filter.turnId)) return false;
  return true;
}
