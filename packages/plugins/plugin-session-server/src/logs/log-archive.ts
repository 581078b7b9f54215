// The log records of this process kept for the Logs page (logs.query): the latest ones at info and above, bounded
// by count and by bytes (a record's text length, fields included); the oldest go first. A range further back is
// in the rotated file log (<dataDir>/logs/aalis.log).
import type { LogRecord } from '@aalis/core';
import { type ActiveLogFilter, matchesLogFilter } from './log-filter.js';

export const LOG_ARCHIVE_RECORDS = 20_000;
export const LOG_ARCHIVE_BYTES = 16 * 1024 * 1024;

interface Kept {
  record: LogRecord;
  bytes: number;
}

function sizeOf(record: LogRecord): number {
  let bytes = record.message.length + record.name.length + 32;
  if (record.fields) {
    try {
      bytes += JSON.stringify(record.fields).length;
    } catch {
      bytes += 64;
    }
  }
  return bytes;
}

export class LogArchive {
  private readonly kept: Kept[] = [];
  private start = 0;
  private bytes = 0;

  constructor(private readonly limits = { records: LOG_ARCHIVE_RECORDS, bytes: LOG_ARCHIVE_BYTES }) {}

  add(record: LogRecord): void {
    const bytes = sizeOf(record);
    this.kept.push({ record, bytes });
    this.bytes += bytes;
    while (this.kept.length - this.start > this.limits.records || this.bytes > this.limits.bytes) {
      this.bytes -= this.kept[this.start]!.bytes;
      this.start++;
    }
    // Compact now and then, so the array does not grow with what was dropped.
    if (this.start > 4096 && this.start * 2 > this.kept.length) {
      this.kept.splice(0, this.start);
      this.start = 0;
    }
  }

  /** The oldest record kept (its time), undefined when none. */
  oldest(): number | undefined {
    return this.kept[this.start]?.record.time;
  }

  /** The latest `limit` records matching the filter within [from, to], oldest first; `truncated` if more matched. */
  query(
    filter: ActiveLogFilter,
    { from = 0, to = Number.MAX_SAFE_INTEGER, limit }: { from?: number; to?: number; limit: number },
  ): { records: LogRecord[]; truncated: boolean } {
    const found: LogRecord[] = [];
    let truncated = false;
    for (let index = this.kept.length - 1; index >= this.start; index--) {
      const { record } = this.kept[index]!;
      if (record.time > to) continue;
      if (record.time < from) break;
      if (!matchesLogFilter(record, filter)) continue;
      if (found.length === limit) {
        truncated = true;
        break;
      }
      found.push(record);
    }
    return { records: found.reverse(), truncated };
  }
}
