// The runtime's log sinks: a size-rotated file in <dataDir>/logs and a console line writer. Both redact secrets:
// fields named like a credential, and the literal values of the configured secrets (the API key) anywhere.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel, type LogRecord, type LogSink, redactor } from '@aalis/core';

/** The core's secret redaction, which both sinks apply to every line (re-exported for the runtime's users). */
export { redactor };

const SECRET_FIELD = /^(api[-_]?key|authorization|password|secret|access[-_]?token|bearer)$/i;

/** Whether an object has an own enumerable key (what `Object.keys(…).length > 0` says, without the array). */
function hasOwnKey(fields: Record<string, unknown>): boolean {
  for (const key in fields) if (Object.hasOwn(fields, key)) return true;
  return false;
}

function fieldsText(fields: Record<string, unknown> | undefined): string {
  if (!fields || !hasOwnKey(fields)) return '';
  try {
    return ` ${JSON.stringify(fields, (key, value) => {
      if (SECRET_FIELD.test(key) && value !== undefined && value !== '') return '***';
      if (value instanceof Error) return value.message;
      return value;
    })}`;
  } catch {
    return ' [unserialisable fields]';
  }
}

/** Each level as the file line spells it (upper case, padded to 5), made once instead of per line. */
const LEVEL_LABEL: ReadonlyMap<string, string> = new Map(
  LOG_LEVELS.map((level) => [level, level.toUpperCase().padEnd(5)]),
);

/** `2026-01-02T03:04:05.678Z INFO  name: message {fields}` */
export function formatLogLine(record: LogRecord): string {
  const level = LEVEL_LABEL.get(record.level) ?? record.level.toUpperCase().padEnd(5);
  return `${new Date(record.time).toISOString()} ${level} ${record.name}: ${record.message}${fieldsText(record.fields)}`;
}

export interface FileLogSinkOptions {
  dir: string;
  level: LogLevel;
  /** Rotate when the current file would grow past this many bytes. */
  maxBytes: number;
  /** Files kept in all, the current one included: aalis.log, aalis.1.log … aalis.<maxFiles-1>.log. */
  maxFiles: number;
  secrets?: readonly string[];
  fileName?: string;
}

export interface FileLogSink extends LogSink {
  readonly path: string;
  close(): void;
}

/** Appends synchronously (nothing is lost at exit); rotates by size, keeping `maxFiles` files. */
export function fileLogSink({
  dir,
  level,
  maxBytes,
  maxFiles,
  secrets = [],
  fileName = 'aalis.log',
}: FileLogSinkOptions): FileLogSink {
  makeDirectory(dir);
  const path = join(dir, fileName);
  const base = fileName.replace(/\.log$/, '');
  const rotated = (index: number) => join(dir, `${base}.${index}.log`);
  const redact = redactor(secrets);
  let fd: number | undefined;
  let size = existsSync(path) ? statSync(path).size : 0;

  const rotate = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    if (maxFiles <= 1) {
      rmSync(path, { force: true });
    } else {
      rmSync(rotated(maxFiles - 1), { force: true });
      for (let index = maxFiles - 2; index >= 1; index--) {
        if (existsSync(rotated(index))) renameSync(rotated(index), rotated(index + 1));
      }
      renameSync(path, rotated(1));
    }
    size = 0;
  };

  return {
    level,
    path,
    write(record) {
      const line = `${redact(formatLogLine(record))}\n`;
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      fd ??= openSync(path, 'a');
      writeSync(fd, line);
      size += bytes;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** One short line per record (`[warn] name: message {fields}`) handed to `write` (stderr, or the chat screen). */
export function lineLogSink({
  level,
  write,
  secrets = [],
}: {
  level: LogLevel;
  write(line: string, record: LogRecord): void;
  secrets?: readonly string[];
}): LogSink {
  const redact = redactor(secrets);
  return {
    level,
    write(record) {
      write(redact(`[${record.level}] ${record.name}: ${record.message}${fieldsText(record.fields)}`), record);
    },
  };
}

/**
 * `mkdir -p`, one level at a time. Node 20's recursive mkdirSync never returns for a path under /proc or /sys
 * (mkdir answers ENOENT there although the parent exists, and it retries forever); this reports that error.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Another process made it meanwhile: as good as ours.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(level).isDirectory()) throw error;
    }
  }
}
