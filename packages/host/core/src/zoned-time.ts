// The wall-clock parts of a moment in an IANA time zone, the same in Node and browsers: archive stamps, schedules,
// budgets' days, quiet hours and the current_time tool all read them here.
import { setBounded } from './bounded-map.js';

export interface ZonedTime {
  /** Four digits. */
  year: string;
  /** Two digits each, the hour from 00 to 23. */
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  /** In English: 'Monday'. */
  weekday: string;
  /** 'GMT+08:00' (UTC: 'GMT+00:00', or 'GMT' where the ICU data writes it so). */
  offset: string;
}

/** Zones spelled differently are different keys ('utc', 'UTC'): bounded all the same. */
const MAX_ZONES = 1_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  const known = formatters.get(timeZone);
  if (known) return known;
  // en-US with numeric parts: only the parts are used, never the locale's layout. Throws a RangeError for a zone the
  // runtime does not know, before anything is kept.
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'long',
    timeZoneName: 'longOffset',
  });
  setBounded(formatters, timeZone, formatter, MAX_ZONES);
  return formatter;
}

/** Whether the runtime knows the IANA time zone `zone`. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The parts of `time` (milliseconds since the epoch, or a Date) in `timeZone`; a RangeError for an unknown zone. */
export function zonedTime(time: number | Date, timeZone: string): ZonedTime {
  const raw: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterOf(timeZone).formatToParts(time)) raw[part.type] = part.value;
  const pad = (value: string | undefined, width: number) => (value ?? '').padStart(width, '0');
  return {
    year: pad(raw.year, 4),
    month: pad(raw.month, 2),
    day: pad(raw.day, 2),
    hour: pad(raw.hour, 2),
    minute: pad(raw.minute, 2),
    second: pad(raw.second, 2),
    weekday: raw.weekday ?? '',
    offset: raw.timeZoneName ?? '',
  };
}
