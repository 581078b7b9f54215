// @aalis/plugin-memory-summary: the token:usage consumer that compacts history (plugin-agent.zh.md 「Token 预算追踪与
// 日志」 consumers, 「会话设置项」 historyLimit): at a turn's end, when its last usage crossed the session's
// auto-compaction line (or was trimmed) or the session reached historyLimit messages, the active history is
// summarised into a compression divider; the latest summary goes back to the model at the head of every prompt.

import { commands } from '@aalis/api-commands';
import { contributions } from '@aalis/api-contributions';
import { hooks } from '@aalis/api-hooks';
import { memory } from '@aalis/api-memory';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { config, definePlugin, events, i18n, lifecycle, logger, optional, services, translatorOf } from '@aalis/core';
import { autoCompactField, readAutoCompactRatio } from './auto-compact-field.js';
import { compactCommand } from './compact-command.js';
import { Compactor } from './compactor.js';
import { ConversationPrompts } from './conversation-prompts.js';
import { SessionActivity } from './session-activity.js';
import { resolveSummaryModel, sessionModelSetting } from './session-model.js';
import { summaryConfigSchema } from './summary-config.js';
import { summaryBlock, summaryContribution } from './summary-contribution.js';
import { SummaryStore } from './summary-store.js';
import { defaultSchedule, type Schedule, turnEndMiddleware } from './turn-end.js';
import { TurnUsageTracker } from './turn-usage.js';
import './summary-events.js';
import './summary-texts.js';

export { AUTO_COMPACT_FIELD, autoCompactField } from './auto-compact-field.js';
export { type CompactionReason, compactionReason, messagesAtTurnEnd, type TurnUsage } from './compaction-rules.js';
export type { CompactionResult, CompactionTrigger } from './compactor.js';
export { type SummaryConfig, summaryConfigSchema } from './summary-config.js';
export { summaryErrors } from './summary-errors.js';
export type { SummaryCompactedEvent } from './summary-events.js';
export { activeSummary, summaryOf } from './summary-store.js';
export type { Schedule } from './turn-end.js';

export interface MemorySummaryOptions {
  /** Runs the deferred turn-end work (default: a zero-delay timer). Tests pass one that keeps the promises. */
  schedule?: Schedule;
}

export function createMemorySummaryPlugin({ schedule = defaultSchedule }: MemorySummaryOptions = {}) {
  return definePlugin({
    name: '@aalis/plugin-memory-summary',
    uses: {
      logger,
      config,
      events,
      i18n,
      lifecycle,
      services,
      hooks,
      contributions,
      memory,
      sessionFields: optional(sessionFields),
      commands: optional(commands),
      sessionManager: optional(sessionManager),
    },
    config: summaryConfigSchema,
    apply(handles) {
      const cfg = handles.config.use;
      const log = handles.logger.use;
      const t = translatorOf(handles.i18n.use);
      const activity = new SessionActivity();
      const tracker = new TurnUsageTracker();
      const store = new SummaryStore(() => handles.memory.use);
      const prompts = new ConversationPrompts();
      const compactor = new Compactor({
        memory: () => handles.memory.use,
        activity,
        store,
        events: handles.events.use,
        log,
        signal: handles.lifecycle.use.signal,
        maxSummaryTokens: cfg.maxSummaryTokens,
        entryMaxChars: cfg.entryMaxChars,
        t,
        conversationPrompt: (sessionId) => prompts.get(sessionId),
        summaryBlock: (summary) => summaryBlock(t('memorySummary.header'), summary),
        async model({ sessionId, platform, venue }) {
          const requested =
            cfg.model ?? (await sessionModelSetting(handles.sessionFields, { sessionId, platform, venue }));
          return resolveSummaryModel({ services: handles.services.use, requested });
        },
        async purpose(sessionId) {
          if (!handles.sessionManager.available) return 'conversation';
          const session = await handles.sessionManager.use.get(sessionId);
          return session?.parentId !== undefined ? 'subtask' : 'conversation';
        },
      });

      handles.events.use.on('token:usage', (event) => tracker.record(event));
      handles.hooks.use.middleware('agent:llm:after', async (context, next) => {
        prompts.record(context);
        await next();
      });
      handles.hooks.use.middleware('agent:turn:before', (context, next) =>
        activity.aroundTurn(context.sessionId, next),
      );
      handles.hooks.use.middleware(
        'agent:turn:after',
        turnEndMiddleware({
          tracker,
          compactor,
          schedule,
          log,
          autoCompactRatio: (scope) =>
            readAutoCompactRatio({ sessionFields: handles.sessionFields, scope, fallback: cfg.autoCompactRatio }),
        }),
      );
      handles.contributions.use.contribute(
        'agent:prompt',
        summaryContribution({ store, header: () => t('memorySummary.header') }),
      );
      handles.sessionFields.use.register(autoCompactField(cfg.autoCompactRatio));
      handles.commands.use.register(compactCommand(compactor));
      handles.events.use.on('memory:cleared', ({ sessionIds }) => {
        compactor.cancel(sessionIds);
        store.forget(sessionIds);
        prompts.forget(sessionIds);
      });
      handles.lifecycle.use.onDrain(() => compactor.drain());
    },
  });
}

export default createMemorySummaryPlugin();
