// Quiet hours: a daily span of local time ('23:00'–'07:00' crosses midnight) in an IANA time zone.
import { zonedTime } from '@aalis/core';

export interface QuietHours {
  /** 'HH:MM'; '' = no quiet hours. */
  from: string;
  to: string;
  timeZone: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isClock(text: string): boolean {
  return HHMM.test(text);
}

const minutesOf = (text: string): number => {
  const match = HHMM.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};

/** Minutes since local midnight in the zone. */
function localMinutes(now: number, timeZone: string): number {
  const { hour, minute } = zonedTime(now, timeZone);
  return Number(hour) * 60 + Number(minute);
}

export function inQuietHours(now: number, quiet: QuietHours): boolean {
  if (quiet.from === '' || quiet.to === '' || quiet.from === quiet.to) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const at = localMinutes(now, quiet.timeZone);
  return from < to ? at >= from && at < to : at >= from || at < to;
}
