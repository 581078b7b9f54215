// The time annotation of archived inputs: `[YYYY-MM-DD HH:mm]` in an IANA time zone, identical in Node and browsers.
import { DEFAULT_LOCALE, type Locale, textRef, translate } from '@aalis/core';
import { archiveErrors } from './archive-errors.js';
import './archive-catalogue.js';

export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      // en-US with numeric parts: only the parts are used, never the locale's layout.
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch (cause) {
      throw archiveErrors.AALIS_ARCHIVE_TIME_ZONE_INVALID({ timeZone }, { cause });
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Throws AALIS_ARCHIVE_TIME_ZONE_INVALID for a time zone the runtime does not know. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

/** `[2026-11-29 21:05]` for `time` (milliseconds since the epoch) in `timeZone` (default UTC). */
export function formatArchiveTime({
  time,
  timeZone = DEFAULT_TIME_ZONE,
  locale = DEFAULT_LOCALE,
}: {
  time: number;
  timeZone?: string;
  locale?: Locale;
}): string {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(time))) parts[part.type] = part.value;
  const pad = (value: string | undefined, width: number) => (value ?? '').padStart(width, '0');
  return translate(
    textRef('messageArchive.time', {
      year: pad(parts.year, 4),
      month: pad(parts.month, 2),
      day: pad(parts.day, 2),
      hour: pad(parts.hour, 2),
      minute: pad(parts.minute, 2),
    }),
    locale,
  );
}
