// A downloaded range of log records as text: one line per record, as the file log writes them
// (`2026-01-02T03:04:05.678Z INFO  name: message {fields}`), so both read alike.
import type { LogView } from '@aalis/session-client';

export function logLine(record: LogView): string {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ` ${JSON.stringify(record.fields)}` : '';
  return `${new Date(record.time).toISOString()} ${record.level.toUpperCase().padEnd(5)} ${record.name}: ${record.message}${fields}`;
}

export function logText(records: readonly LogView[]): string {
  return records.map((record) => `${logLine(record)}\n`).join('');
}

/** The file name of a downloaded range: aalis-logs-<from>-<to>.log (UTC, minutes). */
export function logFileName(from: number | undefined, to: number): string {
  const stamp = (at: number) => new Date(at).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `aalis-logs-${from !== undefined ? stamp(from) : 'start'}-${stamp(to)}.log`;
}
