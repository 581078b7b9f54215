// Quiet hours: a daily span of local time ('23:00'–'07:00' crosses midnight) in an IANA time zone.
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

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight in the zone. */
function localMinutes(now: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((part) => part.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

export function inQuietHours(now: number, quiet: QuietHours): boolean {
  if (quiet.from === '' || quiet.to === '' || quiet.from === quiet.to) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const at = localMinutes(now, quiet.timeZone);
  return from < to ? at >= from && at < to : at >= from || at < to;
}
