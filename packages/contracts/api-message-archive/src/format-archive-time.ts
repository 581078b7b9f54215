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
  return translate(textRef('messageArchive.time', minuteParts(time, timeZone)), locale);
}

type MinuteParts = { year: string; month: string; day: string; hour: string; minute: string };

/** The last minute formatted per time zone: a turn stamps several messages within the same minute. */
const lastMinute = new Map<string, { minute: number; parts: MinuteParts }>();

function minuteParts(time: number, timeZone: string): MinuteParts {
  const minute = Math.floor(time / 60_000);
  const cached = lastMinute.get(timeZone);
  if (cached && cached.minute === minute) return cached.parts;
  const raw: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(time))) raw[part.type] = part.value;
  const pad = (value: string | undefined, width: number) => (value ?? '').padStart(width, '0');
  const parts = {
    year: pad(raw.year, 4),
    month: pad(raw.month, 2),
    day: pad(raw.day, 2),
    hour: pad(raw.hour, 2),
    minute: pad(raw.minute, 2),
  };
  lastMinute.set(timeZone, { minute, parts });
  return parts;
}
