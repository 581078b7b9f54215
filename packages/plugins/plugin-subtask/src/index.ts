// @aalis/plugin-subtask: subtasks in child sessions (kind `child`) — spawn_subtask, wait_subtasks, stop_subtask,
// /subtasks and /subtask.stop; background subtasks that report back with a host notice opening a continuation
// turn; the limits as session settings; the session's subtasks as background tasks (「后台」).
import { agent } from '@aalis/api-agent';
import { authorisedIdentityOf, sameIdentity } from '@aalis/api-authority';
import { backgroundTasks } from '@aalis/api-background';
import { commands } from '@aalis/api-commands';
import { hooks } from '@aalis/api-hooks';
import { llm, resolveModelFor } from '@aalis/api-llm';
import { persona } from '@aalis/api-persona';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { tools } from '@aalis/api-tools';
import { definePlugin, events, i18n, lifecycle, logger, optional, provide, services, textRef } from '@aalis/core';
import { subtaskFields } from './subtask-fields.js';
import { SubtaskManager } from './subtask-manager.js';
import { toBackgroundTask } from './subtask-record.js';
import { subtaskTools } from './subtask-tools.js';
import './subtask-texts.js';

export { SUBTASK_DEFAULTS, SUBTASK_FIELD } from './subtask-fields.js';
export { SUBTASK_PLATFORM, SUBTASK_SOURCE, SubtaskManager } from './subtask-manager.js';
export { subtaskErrors, subtaskTexts } from './subtask-texts.js';
export { SPAWN_SUBTASK_TOOL, STOP_SUBTASK_TOOL, WAIT_SUBTASKS_TOOL } from './subtask-tools.js';

export const SUBTASK_PLUGIN = '@aalis/plugin-subtask';
const AGENT_PLUGIN = '@aalis/plugin-agent';

export default definePlugin({
  name: SUBTASK_PLUGIN,
  provides: [backgroundTasks],
  uses: {
    agent,
    hooks,
    tools,
    events,
    i18n,
    logger,
    lifecycle,
    provide,
    services,
    sessionManager: optional(sessionManager),
    sessionFields: optional(sessionFields),
    persona: optional(persona),
    commands: optional(commands),
  },
  apply(handles) {
    const i18nUse = handles.i18n.use;
    const manager = new SubtaskManager({
      agent: () => handles.agent.use,
      sessions: () => (handles.sessionManager.available ? handles.sessionManager.use : undefined),
      fields: () => (handles.sessionFields.available ? handles.sessionFields.use : undefined),
      llmProviders: () => handles.services.use.providers(llm),
      persona: () => (handles.persona.available ? handles.persona.use : undefined),
      defaultModel: () => {
        const resolved = resolveModelFor({ services: handles.services.use, consumer: AGENT_PLUGIN });
        return resolved ? { provider: resolved.model.provider, model: resolved.model.model } : undefined;
      },
      events: handles.events.use,
      i18n: i18nUse,
      logger: handles.logger.use,
    });
    handles.lifecycle.use.onDispose(() => manager.dispose());
    for (const tool of subtaskTools(manager, i18nUse)) handles.tools.use.register(tool);
    if (handles.sessionFields.available) for (const field of subtaskFields()) handles.sessionFields.use.register(field);
    handles.hooks.use.middleware('agent:turn:before', async (data, next) => {
      // 「不调 next 即这一轮不跑、输入不归档」: the model already has this result from wait_subtasks, and the
      // person has seen the answer it gave; a continuation would say it again.
      if (manager.isReportedNotice(data.inputs)) {
        handles.logger.use.debug('subtask notice not answered: wait_subtasks already returned its result', {
          sessionId: data.sessionId,
          subtask: data.inputs[0]?.message.hostNotice?.id,
        });
        return;
      }
      await next();
    });
    handles.hooks.use.middleware('agent:turn:after', async (data, next) => {
      manager.parentTurnEnded(data.sessionId, data.turnId, data.outcome);
      if (manager.isChild(data.sessionId)) {
        manager.recordTurnEnd(data.sessionId, {
          reply: data.reply,
          outcome: data.outcome,
          ...(data.error !== undefined ? { error: i18nUse.t(data.error) } : {}),
        });
      }
      await next();
    });
    handles.events.use.on('llm:usage', (event) => manager.onUsage(event));
    handles.events.use.on('session:deleted', ({ sessionId }) => manager.onSessionDeleted(sessionId));

    handles.provide.use.service(backgroundTasks, {
      async list(sessionId) {
        return manager.list(sessionId).map(toBackgroundTask);
      },
      async stop(sessionId, taskId, by) {
        const record = manager.get(taskId);
        if (!record || record.parentSessionId !== sessionId) return false;
        return manager.stop(record, { reason: 'background stop', ...(by ? { by } : {}) });
      },
      async stopAll(sessionId, by) {
        let stopped = 0;
        for (const record of manager.list(sessionId)) {
          if (manager.stop(record, { reason: '全部停止', ...(by ? { by } : {}) })) stopped++;
        }
        return stopped;
      },
    });

    if (handles.commands.available) {
      handles.commands.use.register({
        name: 'subtasks',
        description: textRef('subtask.command.list'),
        handler({ sessionId }) {
          const records = manager.list(sessionId);
          if (records.length === 0) return textRef('subtask.command.list.empty');
          return records
            .map((record) => {
              const task = toBackgroundTask(record);
              const cost =
                task.cost !== undefined ? ` ${task.cost.toFixed(4)}${task.currency ? ` ${task.currency}` : ''}` : '';
              return `${record.id}  ${record.status}  ${record.tokens} token${cost}  ${task.title}`;
            })
            .join('\n');
        },
      });
      handles.commands.use.register({
        name: 'subtask.stop',
        description: textRef('subtask.command.stop'),
        usage: textRef('subtask.command.stop.usage'),
        handler({ sessionId, args, message, caller, t }) {
          const id = args[0];
          if (!id) return textRef('subtask.command.stop.missing');
          const record = manager.get(id);
          if (!record || record.parentSessionId !== sessionId) {
            return t(textRef('subtask.unknown', { id }));
          }
          const identity = authorisedIdentityOf(message);
          const participant =
            identity !== undefined && record.origin.participants.some((entry) => sameIdentity(entry, identity));
          if (!participant && !caller.isOwner) return textRef('subtask.stop.refused');
          if (!manager.stop(record, { reason: '/subtask.stop', ...(identity ? { by: identity } : {}) })) {
            return textRef('subtask.notRunning', { id: record.id, status: record.status });
          }
          return textRef('subtask.stopped', { id: record.id });
        },
      });
    }
  },
});
