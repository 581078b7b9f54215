// The slash commands: /remind <time|duration> <text>, /schedule.cron "<expr>" <text> [--tz <zone>], /schedules,
// /schedule.cancel <id> (the person who set it, or an owner).
import { authorisedIdentityOf, sameIdentity } from '@aalis/api-authority';
import type { CommandContext, CommandDefinition } from '@aalis/api-commands';
import type { SessionManagerService } from '@aalis/api-session-manager';
import { textRef } from '@aalis/core';
import { formatMoment, whenOfText } from './schedule-times.js';
import type { Scheduler } from './scheduler.js';

export function scheduleCommands(
  scheduler: Scheduler,
  sessions: () => SessionManagerService | undefined,
): CommandDefinition[] {
  const create = async (context: CommandContext, when: Parameters<Scheduler['create']>[0], zone?: string) => {
    const row = await scheduler.create({ ...when, ...(zone !== undefined ? { timeZone: zone } : {}) });
    return context.t(
      textRef('schedule.created', {
        id: row.id,
        next: formatMoment(row.nextAt!, row.timeZone),
        timeZone: row.timeZone,
      }),
    );
  };
  const base = async (context: CommandContext, prompt: string) => {
    const session = await sessions()?.get(context.sessionId);
    const identity = authorisedIdentityOf(context.message);
    return {
      sessionId: context.sessionId,
      platform: context.platform,
      ...(session?.venue !== undefined
        ? { venue: session.venue }
        : { ...(context.message.venue ? { venue: context.message.venue } : {}) }),
      prompt,
      ...(identity ? { createdBy: identity } : {}),
    };
  };
  return [
    {
      name: 'remind',
      description: textRef('schedule.command.remind'),
      usage: textRef('schedule.command.remind.usage'),
      lenient: true,
      async handler(context) {
        const [when, ...rest] = context.args;
        const prompt = rest.join(' ').trim();
        if (!when || prompt === '') {
          return textRef('schedule.command.missing', {
            usage: `/remind ${context.t(textRef('schedule.command.remind.usage'))}`,
          });
        }
        const zone = typeof context.flags.tz === 'string' ? context.flags.tz : undefined;
        return create(context, { ...(await base(context, prompt)), ...whenOfText(when) }, zone);
      },
    },
    {
      name: 'schedule.cron',
      description: textRef('schedule.command.cron'),
      usage: textRef('schedule.command.cron.usage'),
      async handler(context) {
        const [cron, ...rest] = context.args;
        const prompt = rest.join(' ').trim();
        if (!cron || prompt === '') {
          return textRef('schedule.command.missing', {
            usage: `/schedule.cron ${context.t(textRef('schedule.command.cron.usage'))}`,
          });
        }
        const zone = typeof context.flags.tz === 'string' ? context.flags.tz : undefined;
        return create(context, { ...(await base(context, prompt)), cron }, zone);
      },
    },
    {
      name: 'schedules',
      description: textRef('schedule.command.list'),
      async handler({ sessionId }) {
        const rows = await scheduler.list(sessionId);
        if (rows.length === 0) return textRef('schedule.list.empty');
        return rows
          .map((row) => {
            const next = row.nextAt !== null ? formatMoment(row.nextAt, row.timeZone) : '-';
            return `${row.id}  ${row.status}  ${row.cron ?? 'once'}  ${next}  ${row.prompt}`;
          })
          .join('\n');
      },
    },
    {
      name: 'schedule.cancel',
      description: textRef('schedule.command.cancel'),
      usage: textRef('schedule.command.cancel.usage'),
      async handler({ sessionId, args, message, caller, t }) {
        const id = args[0];
        if (!id)
          return textRef('schedule.command.missing', {
            usage: `/schedule.cancel ${t(textRef('schedule.command.cancel.usage'))}`,
          });
        const row = await scheduler.own(sessionId, id);
        const identity = authorisedIdentityOf(message);
        const creator = identity !== undefined && row.createdBy !== undefined && sameIdentity(identity, row.createdBy);
        if (!creator && !caller.isOwner) return textRef('schedule.cancel.refused');
        if (!(await scheduler.cancel(row))) return textRef('schedule.notScheduled', { id: row.id, status: row.status });
        return textRef('schedule.cancelled', { id: row.id });
      },
    },
  ];
}
