// The time annotation of archived inputs: `[YYYY-MM-DD HH:mm]` in an IANA time zone, identical in Node and browsers.
import { DEFAULT_LOCALE, isTimeZone, type Locale, textRef, translate, zonedTime } from '@aalis/core';
import { archiveErrors } from './archive-errors.js';
import './archive-catalogue.js';

export const DEFAULT_TIME_ZONE = 'UTC';

/** Throws AALIS_ARCHIVE_TIME_ZONE_INVALID for a time zone the runtime does not know. */
export function assertTimeZone(timeZone: string): void {
  if (!isTimeZone(timeZone)) throw archiveErrors.AALIS_ARCHIVE_TIME_ZONE_INVALID({ timeZone });
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
  assertTimeZone(timeZone);
  const { year, month, day, hour, minute: minutes } = zonedTime(time, timeZone);
  const parts = { year, month, day, hour, minute: minutes };
  lastMinute.set(timeZone, { minute, parts });
  return parts;
}
