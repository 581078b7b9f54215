// @aalis/plugin-message-archive: the message archive service: archives inputs with the shared content format
// (time annotation, sender prefix) and stores the agent's messages, all through the memory service.
import { authority } from '@aalis/api-authority';
import { memory } from '@aalis/api-memory';
import { assertTimeZone, DEFAULT_TIME_ZONE, messageArchive } from '@aalis/api-message-archive';
import { sessionManager } from '@aalis/api-session-manager';
import '@aalis/api-gateway';
import { config, definePlugin, events, i18n, logger, optional, provide, s } from '@aalis/core';
import { createMessageArchive } from './create-message-archive.js';
import { deliveryFailureRecord } from './delivery-failure-record.js';
import { noticeRecord } from './notice-record.js';

export { createMessageArchive, type MessageArchiveOptions } from './create-message-archive.js';
export { deliveryFailureRecord } from './delivery-failure-record.js';
export { noticeRecord } from './notice-record.js';

export const messageArchiveConfig = s.object({
  timeZone: s
    .string()
    .nonEmpty()
    .default(DEFAULT_TIME_ZONE)
    .describe(
      'IANA time zone of the time annotation of archived inputs (e.g. "Asia/Shanghai"). The agent must use the same one when it builds the content itself.',
    ),
});

export default definePlugin({
  name: '@aalis/plugin-message-archive',
  provides: [messageArchive],
  uses: {
    config,
    i18n,
    events,
    logger,
    provide,
    memory,
    sessionManager: optional(sessionManager),
    authority: optional(authority),
  },
  config: messageArchiveConfig,
  apply({ config, i18n, events, logger, provide, memory, sessionManager, authority }) {
    const { timeZone } = config.use;
    assertTimeZone(timeZone);
    const archive = createMessageArchive({
      memory: memory.use,
      sessionManager: () => (sessionManager.available ? sessionManager.use : undefined),
      authority: () => (authority.available ? authority.use : undefined),
      timeZone,
      locale: i18n.use.locale,
    });
    provide.use.service(messageArchive, archive);
    // A reply that did not reach its platform is recorded in the history with its turn id.
    events.use.on('outbound:failed', async (failure) => {
      const record = deliveryFailureRecord(failure, i18n.use.locale);
      if (!record) return;
      try {
        await archive.saveMessage(failure.message.sessionId, record);
      } catch (error) {
        logger.use.warn('recording a failed delivery failed', {
          sessionId: failure.message.sessionId,
          error: String(error),
        });
      }
    });
    // A notice sent outside a turn is recorded, so the conversation shows it after a reload.
    events.use.on('outbound:message', async (message) => {
      const record = noticeRecord(message, Date.now());
      if (!record) return;
      try {
        await archive.saveMessage(message.sessionId, record);
      } catch (error) {
        logger.use.warn('recording a notice failed', { sessionId: message.sessionId, error: String(error) });
      }
    });
  },
});
