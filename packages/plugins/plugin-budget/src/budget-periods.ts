// The day and the month a moment falls in, in the budget's time zone ('2026-12-07', '2026-12').
const formats = new Map<string, Intl.DateTimeFormat>();

export function dayOf(now: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(now);
}

export function monthOf(now: number, timeZone: string): string {
  return dayOf(now, timeZone).slice(0, 7);
}
