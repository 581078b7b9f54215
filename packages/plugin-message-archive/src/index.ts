// @aalis/plugin-message-archive: the message archive service: archives inputs with the shared content format
// (time annotation, sender prefix) and stores the agent's messages, all through the memory service.
import { authority } from '@aalis/api-authority';
import { memory } from '@aalis/api-memory';
import { assertTimeZone, DEFAULT_TIME_ZONE, messageArchive } from '@aalis/api-message-archive';
import { sessionManager } from '@aalis/api-session-manager';
import { config, definePlugin, i18n, optional, provide, s } from '@aalis/core';
import { createMessageArchive } from './create-message-archive.js';

export { createMessageArchive, type MessageArchiveOptions } from './create-message-archive.js';

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
    provide,
    memory,
    sessionManager: optional(sessionManager),
    authority: optional(authority),
  },
  config: messageArchiveConfig,
  apply({ config, i18n, provide, memory, sessionManager, authority }) {
    const { timeZone } = config.use;
    assertTimeZone(timeZone);
    provide.use.service(
      messageArchive,
      createMessageArchive({
        memory: memory.use,
        sessionManager: () => (sessionManager.available ? sessionManager.use : undefined),
        authority: () => (authority.available ? authority.use : undefined),
        timeZone,
        locale: i18n.use.locale,
      }),
    );
  },
});
