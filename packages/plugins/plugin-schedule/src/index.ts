// @aalis/plugin-schedule: reminders and recurring tasks (cron with time zones through croner) in the storage
// engine's database, each firing claimed once across restarts and processes and handed to the agent as an
// injection (source 'schedule', triggerType 'scheduled') with its own turn; idle prompts (空闲开话题) as an opt-in
// session setting; tools, commands, and the session's tasks as background tasks (「后台」).
import { agent } from '@aalis/api-agent';
import { backgroundTasks } from '@aalis/api-background';
import { commands } from '@aalis/api-commands';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { openStore, storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { config, definePlugin, events, i18n, lifecycle, logger, optional, provide, s } from '@aalis/core';
import { IdlePrompts, idleFields } from './idle-prompts.js';
import { postgresScheduleStore } from './postgres-schedule-store.js';
import { scheduleCommands } from './schedule-commands.js';
import { scheduleTools } from './schedule-tools.js';
import { Scheduler, toBackgroundTask } from './scheduler.js';
import { sqliteScheduleStore } from './sqlite-schedule-store.js';
import './schedule-texts.js';

export { IDLE_FIELD, IDLE_SOURCE, IdlePrompts } from './idle-prompts.js';
export { scheduleErrors, scheduleTexts } from './schedule-texts.js';
export { SCHEDULE_CANCEL_TOOL, SCHEDULE_CREATE_TOOL, SCHEDULE_LIST_TOOL } from './schedule-tools.js';
export { SCHEDULE_SOURCE, Scheduler } from './scheduler.js';

export const SCHEDULE_PLUGIN = '@aalis/plugin-schedule';

export const scheduleConfigSchema = s
  .object({
    timeZone: s.string().default('UTC').describe('IANA time zone of moments and cron expressions given without one.'),
    pollIntervalMs: s
      .number()
      .integer()
      .min(50)
      .default(1000)
      .describe('How often due tasks (and idle prompts) are looked for, in milliseconds.'),
  })
  .describe('Reminders, recurring tasks and idle prompts.');

export default definePlugin({
  name: SCHEDULE_PLUGIN,
  provides: [backgroundTasks],
  uses: {
    agent,
    hooks,
    tools,
    storage,
    config,
    events,
    i18n,
    logger,
    lifecycle,
    provide,
    sessionManager: optional(sessionManager),
    sessionFields: optional(sessionFields),
    commands: optional(commands),
  },
  config: scheduleConfigSchema,
  async apply(handles) {
    const settings = handles.config.use;
    const store = await openStore(handles.storage.use, {
      sqlite: sqliteScheduleStore,
      postgres: postgresScheduleStore,
    });
    const handleMessage = (message: Parameters<typeof handles.agent.use.handleMessage>[0]) =>
      handles.agent.use.handleMessage(message);
    const idle = new IdlePrompts({
      fields: () => (handles.sessionFields.available ? handles.sessionFields.use : undefined),
      session: async (sessionId) =>
        handles.sessionManager.available ? handles.sessionManager.use.get(sessionId) : undefined,
      handleMessage,
      logger: handles.logger.use,
    });
    const scheduler = new Scheduler({
      store,
      handleMessage,
      events: handles.events.use,
      i18n: handles.i18n.use,
      logger: handles.logger.use,
      timeZone: settings.timeZone,
      pollIntervalMs: settings.pollIntervalMs,
      afterPoll: () => idle.check(),
    });
    for (const tool of scheduleTools(scheduler, handles.i18n.use, () =>
      handles.sessionManager.available ? handles.sessionManager.use : undefined,
    )) {
      handles.tools.use.register(tool);
    }
    if (handles.sessionFields.available) for (const field of idleFields()) handles.sessionFields.use.register(field);
    if (handles.commands.available) {
      for (const command of scheduleCommands(scheduler, () =>
        handles.sessionManager.available ? handles.sessionManager.use : undefined,
      )) {
        handles.commands.use.register(command);
      }
    }
    handles.hooks.use.middleware('agent:turn:before', async (data, next) => {
      idle.turnStarted(data.sessionId);
      await next();
    });
    handles.hooks.use.middleware('agent:turn:after', async (data, next) => {
      idle.turnEnded(data.sessionId, data.inputs[0]?.message.triggerType === 'idle');
      await next();
    });
    handles.events.use.on('session:deleted', async ({ sessionId }) => {
      idle.forget(sessionId);
      await store.deleteSession(sessionId);
    });
    handles.provide.use.service(backgroundTasks, {
      async list(sessionId) {
        return (await scheduler.list(sessionId)).map(toBackgroundTask);
      },
      async stop(sessionId, taskId, by) {
        const row = await store.get(taskId);
        if (!row || row.sessionId !== sessionId) return false;
        // The 「后台」 tab is the session's own page: whoever may see the session may cancel its tasks.
        if (by) handles.logger.use.info('scheduled task cancelled from the background tab', { id: row.id });
        return scheduler.cancel(row);
      },
      // 「全部停止」 stops what runs; a scheduled task that is only waiting keeps its schedule.
      async stopAll() {
        return 0;
      },
    });
    scheduler.start();
    handles.lifecycle.use.onDrain(() => scheduler.stop());
    handles.lifecycle.use.onDispose(() => scheduler.stop());
  },
});
