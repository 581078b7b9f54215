// The model-facing tools: schedule_create, schedule_list, schedule_cancel (in the calling session, or for a child
// session such as a subtask's, in the session above it where a person reads the replies).
import type { SessionInfo, SessionManagerService } from '@aalis/api-session-manager';
import { closedParameters, type Tool } from '@aalis/api-tools';
import { type I18n, translatorOf } from '@aalis/core';
import type { ScheduleRow } from './schedule-store.js';
import { formatMoment } from './schedule-times.js';
import type { Scheduler } from './scheduler.js';

export const SCHEDULE_CREATE_TOOL = 'schedule_create';
export const SCHEDULE_LIST_TOOL = 'schedule_list';
export const SCHEDULE_CANCEL_TOOL = 'schedule_cancel';

export function describeRow(row: ScheduleRow) {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    ...(row.cron ? { cron: row.cron } : {}),
    timeZone: row.timeZone,
    ...(row.nextAt !== null ? { next: formatMoment(row.nextAt, row.timeZone) } : {}),
    fires: row.fires,
    prompt: row.prompt,
  };
}

/** How far up a chain of child sessions the tools look (subtask trees are far shallower). */
const MAX_CHILD_DEPTH = 64;

/**
 * The session a task of `sessionId` belongs to: the session itself, or for a child session (kind `child`: a
 * subtask's, whose replies go only to its parent) the first session above it that is not a child. A reminder set
 * inside a subtask fires where a person sees its reply, and is listed in that session's 「后台」 tab.
 */
export async function taskSessionOf(
  sessions: SessionManagerService | undefined,
  sessionId: string,
): Promise<{ sessionId: string; session: SessionInfo | undefined }> {
  let session = await sessions?.get(sessionId);
  for (let depth = 0; session?.kind === 'child' && session.parentId !== undefined && depth < MAX_CHILD_DEPTH; depth++) {
    const parent = await sessions?.get(session.parentId);
    if (!parent) break;
    session = parent;
  }
  return { sessionId: session?.id ?? sessionId, session };
}

export function scheduleTools(
  scheduler: Scheduler,
  i18n: I18n,
  sessions: () => SessionManagerService | undefined,
): Tool[] {
  const t = translatorOf(i18n);
  return [
    {
      name: SCHEDULE_CREATE_TOOL,
      description: t('schedule.tool.create'),
      parameters: closedParameters(
        {
          prompt: { type: 'string', minLength: 1, description: t('schedule.tool.create.prompt') },
          at: { type: 'string', minLength: 1, description: t('schedule.tool.create.at') },
          inMinutes: { type: 'number', exclusiveMinimum: 0, description: t('schedule.tool.create.inMinutes') },
          cron: { type: 'string', minLength: 1, description: t('schedule.tool.create.cron') },
          timeZone: { type: 'string', minLength: 1, description: t('schedule.tool.create.timeZone') },
        },
        ['prompt'],
      ),
      async handler(args, context) {
        const { prompt, at, inMinutes, cron, timeZone } = args as {
          prompt: string;
          at?: string;
          inMinutes?: number;
          cron?: string;
          timeZone?: string;
        };
        const target = await taskSessionOf(sessions(), context.sessionId);
        const session = target.session;
        const actor = context.participants[0];
        const row = await scheduler.create({
          sessionId: target.sessionId,
          platform: target.sessionId === context.sessionId ? context.platform : (session?.platform ?? context.platform),
          ...(session?.venue !== undefined ? { venue: session.venue } : {}),
          prompt,
          ...(at !== undefined ? { at } : {}),
          ...(inMinutes !== undefined ? { inMinutes } : {}),
          ...(cron !== undefined ? { cron } : {}),
          ...(timeZone !== undefined ? { timeZone } : {}),
          ...(actor ? { createdBy: actor } : {}),
        });
        return t('schedule.created', {
          id: row.id,
          next: formatMoment(row.nextAt!, row.timeZone),
          timeZone: row.timeZone,
        });
      },
    },
    {
      name: SCHEDULE_LIST_TOOL,
      description: t('schedule.tool.list'),
      parameters: closedParameters({}),
      async handler(_args, context) {
        const rows = await scheduler.list((await taskSessionOf(sessions(), context.sessionId)).sessionId);
        if (rows.length === 0) return t('schedule.list.empty');
        return JSON.stringify(rows.map(describeRow), null, 2);
      },
    },
    {
      name: SCHEDULE_CANCEL_TOOL,
      description: t('schedule.tool.cancel'),
      parameters: closedParameters(
        { id: { type: 'string', minLength: 1, description: t('schedule.tool.cancel.id') } },
        ['id'],
      ),
      async handler(args, context) {
        const { sessionId } = await taskSessionOf(sessions(), context.sessionId);
        const row = await scheduler.own(sessionId, (args as { id: string }).id);
        if (!(await scheduler.cancel(row))) return t('schedule.notScheduled', { id: row.id, status: row.status });
        return t('schedule.cancelled', { id: row.id });
      },
    },
  ];
}
