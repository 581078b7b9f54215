// Where scheduled tasks live: one table in the storage engine's database (SQLite in the data directory, or
// PostgreSQL). A firing is claimed by one conditional UPDATE (next_at still the value read, status still
// scheduled), so across restarts and processes exactly one claim of each due firing wins.
import type { Identity } from '@aalis/schema-message';

export type ScheduleKind = 'once' | 'cron';
export type ScheduleStatus = 'scheduled' | 'done' | 'cancelled';

export interface ScheduleRow {
  id: string;
  sessionId: string;
  platform: string;
  venue?: string;
  kind: ScheduleKind;
  /** The cron expression of a recurring task. */
  cron?: string;
  timeZone: string;
  /** The next firing (ms since the epoch); null once done or cancelled. */
  nextAt: number | null;
  prompt: string;
  createdBy?: Identity;
  createdAt: number;
  status: ScheduleStatus;
  lastFiredAt?: number;
  fires: number;
}

export interface ScheduleStore {
  insert(row: ScheduleRow): Promise<void>;
  get(id: string): Promise<ScheduleRow | undefined>;
  /** The session's tasks, scheduled ones first (soonest first), then the rest, newest first. */
  listForSession(sessionId: string, limit?: number): Promise<ScheduleRow[]>;
  /** Scheduled tasks due at `now`, soonest first. */
  due(now: number, limit: number): Promise<ScheduleRow[]>;
  /** The soonest next firing of any scheduled task, or undefined. */
  soonest(): Promise<number | undefined>;
  /**
   * Claims the firing at `expectedNextAt`: moves the task to `next` (null: done) and counts the firing, only if it
   * is still scheduled at that time. True when this call won the claim.
   */
  claim(id: string, expectedNextAt: number, next: number | null, now: number): Promise<boolean>;
  /** Cancels a scheduled task; false when it was not scheduled. */
  cancel(id: string): Promise<boolean>;
  deleteSession(sessionId: string): Promise<void>;
}

/** The columns as stored (both engines). */
export interface StoredRow {
  id: string;
  session_id: string;
  platform: string;
  venue: string | null;
  kind: string;
  cron: string | null;
  time_zone: string;
  next_at: number | string | null;
  prompt: string;
  created_by: string | null;
  created_at: number | string;
  status: string;
  last_fired_at: number | string | null;
  fires: number | string;
}

export function fromStored(row: StoredRow): ScheduleRow {
  const result: ScheduleRow = {
    id: row.id,
    sessionId: row.session_id,
    platform: row.platform,
    kind: row.kind as ScheduleKind,
    timeZone: row.time_zone,
    nextAt: row.next_at === null ? null : Number(row.next_at),
    prompt: row.prompt,
    createdAt: Number(row.created_at),
    status: row.status as ScheduleStatus,
    fires: Number(row.fires),
  };
  if (row.venue !== null) result.venue = row.venue;
  if (row.cron !== null) result.cron = row.cron;
  if (row.created_by !== null) result.createdBy = JSON.parse(row.created_by) as Identity;
  if (row.last_fired_at !== null) result.lastFiredAt = Number(row.last_fired_at);
  return result;
}

export function toValues(row: ScheduleRow): unknown[] {
  return [
    row.id,
    row.sessionId,
    row.platform,
    row.venue ?? null,
    row.kind,
    row.cron ?? null,
    row.timeZone,
    row.nextAt,
    row.prompt,
    row.createdBy ? JSON.stringify(row.createdBy) : null,
    row.createdAt,
    row.status,
    row.lastFiredAt ?? null,
    row.fires,
  ];
}

export const COLUMNS =
  'id, session_id, platform, venue, kind, cron, time_zone, next_at, prompt, created_by, created_at, status, last_fired_at, fires';

export const ORDER_FOR_SESSION = `ORDER BY CASE WHEN status = 'scheduled' THEN 0 ELSE 1 END,
  CASE WHEN status = 'scheduled' THEN next_at END ASC, created_at DESC`;
