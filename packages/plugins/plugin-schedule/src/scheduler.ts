// The scheduled tasks of a deployment: creating, listing and cancelling them in the store, and a poll that claims
// each due firing (one conditional UPDATE: exactly one process wins, a restart does not fire it again) and hands
// it to the agent as an injection with its source, which gets its own turn in the target session.
import { randomUUID } from 'node:crypto';
import type { BackgroundTask } from '@aalis/api-background';
import type { Events, I18n, Logger } from '@aalis/core';
import { textRef } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import type { ScheduleRow, ScheduleStore } from './schedule-store.js';
import { scheduleErrors } from './schedule-texts.js';
import { assertTimeZone, nextCronRun, timingOf, type When } from './schedule-times.js';

/** The `source` of a firing. */
export const SCHEDULE_SOURCE = 'schedule';
const DUE_BATCH = 50;

export interface CreateRequest extends When {
  sessionId: string;
  platform: string;
  venue?: string;
  prompt: string;
  timeZone?: string;
  createdBy?: Identity;
}

export interface SchedulerDeps {
  store: ScheduleStore;
  handleMessage(message: IncomingMessage): Promise<void>;
  events: Events;
  i18n: I18n;
  logger: Logger;
  timeZone: string;
  pollIntervalMs: number;
  /** Run after each pass (idle prompts ride on the same clock). */
  afterPoll?: () => Promise<void>;
  now?: () => number;
}

export class Scheduler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private polling: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.deps.pollIntervalMs);
    this.timer.unref?.();
    void this.poll();
  }

  /** Stops polling; firings already handed to the agent settle with their turns (the agent drains those). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.polling;
  }

  async create(request: CreateRequest): Promise<ScheduleRow> {
    const prompt = request.prompt.trim();
    if (prompt === '') throw scheduleErrors.AALIS_SCHEDULE_PROMPT_EMPTY();
    const timeZone = request.timeZone ?? this.deps.timeZone;
    assertTimeZone(timeZone);
    const timing = timingOf(request, timeZone, this.now());
    const row: ScheduleRow = {
      id: `sch-${randomUUID().slice(0, 8)}`,
      sessionId: request.sessionId,
      platform: request.platform,
      ...(request.venue !== undefined ? { venue: request.venue } : {}),
      kind: timing.kind,
      ...(timing.cron !== undefined ? { cron: timing.cron } : {}),
      timeZone,
      nextAt: timing.nextAt,
      prompt,
      ...(request.createdBy ? { createdBy: request.createdBy } : {}),
      createdAt: this.now(),
      status: 'scheduled',
      fires: 0,
    };
    await this.deps.store.insert(row);
    this.changed(row);
    return row;
  }

  list(sessionId: string): Promise<ScheduleRow[]> {
    return this.deps.store.listForSession(sessionId);
  }

  /** The session's task, or AALIS_SCHEDULE_UNKNOWN. */
  async own(sessionId: string, id: string): Promise<ScheduleRow> {
    const row = await this.deps.store.get(id);
    if (!row || row.sessionId !== sessionId) throw scheduleErrors.AALIS_SCHEDULE_UNKNOWN({ id });
    return row;
  }

  async cancel(row: ScheduleRow): Promise<boolean> {
    const cancelled = await this.deps.store.cancel(row.id);
    if (cancelled) this.changed({ ...row, status: 'cancelled', nextAt: null });
    return cancelled;
  }

  /** One pass over the due tasks (also what the interval runs); concurrent calls share the pass. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.polling ??= this.pass().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** Resolves when every firing handed out so far has settled (its turn ended). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async pass(): Promise<void> {
    try {
      const now = this.now();
      for (const row of await this.deps.store.due(now, DUE_BATCH)) {
        if (this.stopped) return;
        await this.fire(row, now);
      }
      await this.deps.afterPoll?.();
    } catch (error) {
      this.deps.logger.warn('schedule poll failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private async fire(row: ScheduleRow, now: number): Promise<void> {
    const expected = row.nextAt!;
    // A recurring task missed while no process ran fires once, then from now on.
    const next = row.kind === 'cron' && row.cron ? nextCronRun(row.cron, row.timeZone, new Date(now)) : null;
    if (!(await this.deps.store.claim(row.id, expected, next, now))) return;
    const fired: ScheduleRow = {
      ...row,
      nextAt: next,
      status: next === null ? 'done' : 'scheduled',
      fires: row.fires + 1,
      lastFiredAt: now,
    };
    this.deps.logger.info('scheduled task fired', { id: row.id, sessionId: row.sessionId });
    this.changed(fired);
    const message: IncomingMessage = {
      sessionId: row.sessionId,
      platform: row.platform,
      ...(row.venue !== undefined ? { venue: row.venue } : {}),
      sender: {},
      ...(row.createdBy ? { actor: row.createdBy } : {}),
      content: this.deps.i18n.t(textRef('schedule.fire', { id: row.id, prompt: row.prompt })),
      source: SCHEDULE_SOURCE,
      triggerType: 'scheduled',
      timestamp: now,
      metadata: { scheduleId: row.id },
    };
    const turn = this.deps
      .handleMessage(message)
      .catch((error) => this.deps.logger.warn('scheduled firing failed', { id: row.id, error: String(error) }));
    this.inFlight.add(turn);
    void turn.finally(() => this.inFlight.delete(turn));
  }

  private changed(row: ScheduleRow): void {
    this.deps.events.emit('background:changed', { sessionId: row.sessionId, task: toBackgroundTask(row) });
  }
}

export function toBackgroundTask(row: ScheduleRow): BackgroundTask {
  const task: BackgroundTask = {
    id: row.id,
    kind: 'schedule',
    sessionId: row.sessionId,
    title: row.cron ? `${row.cron} · ${row.prompt}` : row.prompt,
    status: row.status,
    createdAt: row.createdAt,
    stoppable: row.status === 'scheduled',
  };
  if (row.nextAt !== null) task.nextAt = row.nextAt;
  if (row.status !== 'scheduled' && row.lastFiredAt !== undefined) task.endedAt = row.lastFiredAt;
  return task;
}
