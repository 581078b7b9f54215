// @aalis/api-background: what runs on its own for a session — subtasks in child sessions, scheduled tasks — as the
// WebUI's 「后台」 tab lists it (status, cost, a stop button, 「全部停止」). Several plugins provide it at once;
// a consumer asks every provider (services.providers(backgroundTasks)) and merges the lists.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';

/** `running`: working now; `scheduled`: waiting for its time; the rest are final. */
export type BackgroundStatus = 'running' | 'scheduled' | 'done' | 'failed' | 'stopped' | 'cancelled';

export const FINAL_BACKGROUND_STATUSES: readonly BackgroundStatus[] = ['done', 'failed', 'stopped', 'cancelled'];

export interface BackgroundTask {
  /** Unique within its provider's kind. */
  id: string;
  /** What it is: 'subtask', 'schedule', or a provider's own kind. */
  kind: string;
  /** The session whose 「后台」 tab lists it (a subtask's parent, a scheduled task's target). */
  sessionId: string;
  /** One line for people: the task description or the reminder text. */
  title: string;
  status: BackgroundStatus;
  /** Milliseconds since the epoch. */
  createdAt: number;
  endedAt?: number;
  /** Next firing of a scheduled task (ms since the epoch). */
  nextAt?: number;
  /** Model tokens spent so far (prompt + completion), when the task calls models. */
  tokens?: number;
  /** Estimated cost so far, when the models have prices. */
  cost?: number;
  currency?: string;
  /** Whether `stop` can do anything now (running or scheduled). */
  stoppable: boolean;
  /** A subtask's child session. */
  childSessionId?: string;
  /** The last result or error, shortened for a list. */
  summary?: string;
}

export interface BackgroundTasksService {
  /** The session's tasks, running and scheduled first, then the finished ones, newest first. */
  list(sessionId: string): Promise<BackgroundTask[]>;
  /**
   * Stops one task of the session (a subtask's turn aborted, a scheduled task cancelled). False when this provider
   * has no such task or it had already ended.
   */
  stop(sessionId: string, taskId: string, by?: Identity): Promise<boolean>;
  /**
   * 「全部停止」: stops every running background task of the session and releases their queued inputs
   * (AgentService.abort with queued: true); returns how many were stopped. Scheduled tasks keep their schedule.
   */
  stopAll(sessionId: string, by?: Identity): Promise<number>;
}

export const backgroundTasks: ServiceDescriptor<BackgroundTasksService> =
  defineService<BackgroundTasksService>('backgroundTasks');

declare module '@aalis/core' {
  interface EventMap {
    /** A background task of a session changed (started, finished, stopped, fired, cancelled). */
    'background:changed': { sessionId: string; task: BackgroundTask };
  }
}
