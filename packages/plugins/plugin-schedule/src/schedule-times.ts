// When a scheduled task fires: cron expressions and one-off moments through croner (time zones included), and
// durations such as 10m / 2h / 1d for the /remind command.
import { isTimeZone, zonedTime } from '@aalis/core';
import { Cron } from 'croner';
import type { ScheduleKind } from './schedule-store.js';
import { scheduleErrors } from './schedule-texts.js';

export interface When {
  at?: string;
  inMinutes?: number;
  cron?: string;
}

export interface Timing {
  kind: ScheduleKind;
  cron?: string;
  nextAt: number;
}

export function assertTimeZone(zone: string): void {
  if (!isTimeZone(zone)) throw scheduleErrors.AALIS_SCHEDULE_TIME_ZONE_UNKNOWN({ zone });
}

/** The next firing of a cron expression after `from`, or null when it never fires again. */
export function nextCronRun(cron: string, timeZone: string, from: Date): number | null {
  const next = new Cron(cron, { timezone: timeZone, paused: true }).nextRun(from);
  return next ? next.getTime() : null;
}

export function timingOf(when: When, timeZone: string, now: number): Timing {
  assertTimeZone(timeZone);
  const given = [when.at, when.inMinutes, when.cron].filter((value) => value !== undefined).length;
  if (given !== 1) throw scheduleErrors.AALIS_SCHEDULE_WHEN_AMBIGUOUS({ given });
  if (when.cron !== undefined) {
    let pattern: Cron;
    try {
      pattern = new Cron(when.cron, { timezone: timeZone, paused: true });
    } catch (error) {
      throw scheduleErrors.AALIS_SCHEDULE_CRON_INVALID({
        cron: when.cron,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    const next = pattern.nextRun(new Date(now));
    if (!next) throw scheduleErrors.AALIS_SCHEDULE_NEVER_FIRES({ cron: when.cron });
    return { kind: 'cron', cron: when.cron, nextAt: next.getTime() };
  }
  if (when.inMinutes !== undefined) {
    if (!Number.isFinite(when.inMinutes) || when.inMinutes <= 0) {
      throw scheduleErrors.AALIS_SCHEDULE_TIME_INVALID({ at: String(when.inMinutes) });
    }
    return { kind: 'once', nextAt: now + Math.round(when.inMinutes * 60_000) };
  }
  return { kind: 'once', nextAt: momentOf(when.at!, timeZone, now) };
}

const DURATION = /^(\d+(?:\.\d+)?)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration (10m, 2h, 1d, 30s) or an ISO 8601 moment read in `timeZone` when it has no offset. */
export function whenOfText(text: string): When {
  const duration = DURATION.exec(text);
  if (duration) {
    const ms = Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
    return { inMinutes: ms / 60_000 };
  }
  return { at: text };
}

function momentOf(at: string, timeZone: string, now: number): number {
  let next: Date | null;
  try {
    // croner reads an ISO 8601 moment without an offset in `timezone`; one with an offset (or Z) as written.
    next = new Cron(at, { timezone: timeZone, paused: true }).nextRun(new Date(now));
  } catch {
    throw scheduleErrors.AALIS_SCHEDULE_TIME_INVALID({ at });
  }
  if (!next) throw scheduleErrors.AALIS_SCHEDULE_TIME_PAST({ at, timeZone });
  return next.getTime();
}

/** A moment for people and models: local time in the zone with its offset. */
export function formatMoment(ms: number, timeZone: string): string {
  const { year, month, day, hour, minute, second, offset } = zonedTime(ms, timeZone);
  return `${year}-${month}-${day} ${hour}:${minute}:${second} ${offset.replace('GMT', 'UTC')}`;
}
