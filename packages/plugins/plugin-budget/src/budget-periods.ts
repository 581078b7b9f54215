// The day and the month a moment falls in, in the budget's time zone ('2026-12-07', '2026-12').
import { zonedTime } from '@aalis/core';

export function dayOf(now: number, timeZone: string): string {
  const { year, month, day } = zonedTime(now, timeZone);
  return `${year}-${month}-${day}`;
}

export function monthOf(now: number, timeZone: string): string {
  return dayOf(now, timeZone).slice(0, 7);
}
