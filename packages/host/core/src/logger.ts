// Structured logging: levels, a per-plugin name, fields, and pluggable sinks.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

export interface LogRecord {
  time: number;
  level: LogLevel;
  /** The plugin instance (or component) that logged. */
  name: string;
  message: string;
  fields?: Record<string, unknown>;
}

export interface LogSink {
  /** The lowest level this sink wants; records below it are not passed. */
  level?: LogLevel;
  write(record: LogRecord): void;
}

export interface Logger {
  readonly name: string;
  trace(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Whether anything would record a message at this level (to skip building expensive messages). */
  enabled(level: LogLevel): boolean;
  child(name: string): Logger;
}

/** Each level's place in LOG_LEVELS, looked up per record and sink instead of searched for. */
const LEVEL_RANK: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((level, rank) => [level, rank]));

export function levelAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  // An unknown name ranks as indexOf ranked it: below every level.
  return (LEVEL_RANK.get(level) ?? -1) >= (LEVEL_RANK.get(threshold) ?? -1);
}

export class LogHub {
  private readonly sinks = new Set<LogSink>();
  constructor(sinks: readonly LogSink[] = []) {
    for (const sink of sinks) this.sinks.add(sink);
  }
  addSink(sink: LogSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
  enabled(level: LogLevel): boolean {
    for (const sink of this.sinks) if (levelAtLeast(level, sink.level ?? 'info')) return true;
    return false;
  }
  write(record: LogRecord): void {
    for (const sink of this.sinks) {
      if (!levelAtLeast(record.level, sink.level ?? 'info')) continue;
      try {
        sink.write(record);
      } catch {
        // A failing sink must not break the code that logged.
      }
    }
  }
  logger(name: string): Logger {
    const write = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
      if (this.enabled(level)) this.write({ time: Date.now(), level, name, message, fields });
    };
    return {
      name,
      trace: write('trace'),
      debug: write('debug'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      enabled: (level) => this.enabled(level),
      child: (child) => this.logger(`${name}:${child}`),
    };
  }
}

/** A sink writing one line per record to the console (works in browsers and Node). */
export function consoleSink(level: LogLevel = 'info'): LogSink {
  return {
    level,
    write(record) {
      const fields = record.fields && Object.keys(record.fields).length > 0 ? ` ${safeJson(record.fields)}` : '';
      const line = `[${record.level}] ${record.name}: ${record.message}${fields}`;
      if (record.level === 'error') console.error(line);
      else if (record.level === 'warn') console.warn(line);
      else console.log(line);
    },
  };
}

/** A sink that keeps records in memory (tests, diagnostics). */
export function memorySink(level: LogLevel = 'trace'): LogSink & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { level, records, write: (record) => records.push(record) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, entry) => (entry instanceof Error ? entry.message : entry));
  } catch {
    return '[unserialisable fields]';
  }
}
