// The plugin: a preprocessor (its only way in, as the specification says) that reads each file attachment of an
// input before it enters a turn, the read_uploaded_file tool, and the retention sweep of <dataDir>/uploads.
import { agent } from '@aalis/api-agent';
import { gateway } from '@aalis/api-gateway';
import { media } from '@aalis/api-media';
// Types session:deleted (declaration merging), whose listener removes a deleted session's files.
import '@aalis/api-session-manager';
import { storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { config, definePlugin, events, i18n, lifecycle, logger, optional, type TextRef } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { FileReader } from './file-reader.js';
import { fileReaderConfigSchema } from './file-reader-config.js';
import { readUploadedFileTool } from './read-uploaded-file-tool.js';
import { UploadStore } from './upload-store.js';
import './file-reader-texts.js';

export const FILE_READER_PLUGIN = '@aalis/plugin-file-reader';

/** How often expired uploads are looked for. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export default definePlugin({
  name: FILE_READER_PLUGIN,
  uses: {
    agent,
    tools,
    storage,
    config,
    events,
    i18n,
    logger,
    lifecycle,
    gateway: optional(gateway),
    media: optional(media),
  },
  config: fileReaderConfigSchema,
  async apply(handles) {
    const store = new UploadStore(handles.storage.use.resolve('uploads'));
    const reader = new FileReader({
      config: handles.config.use,
      store,
      i18n: handles.i18n.use,
      describeImage: async (image) => (handles.media.available ? handles.media.use.describe(image) : undefined),
    });
    const log = handles.logger.use;
    const notify = async (message: IncomingMessage, failures: TextRef[]) => {
      if (failures.length === 0 || !handles.gateway.available) return;
      const content = failures.map((failure) => handles.i18n.use.t(failure)).join('\n');
      await handles.gateway.use
        .dispatchOutbound({
          sessionId: message.sessionId,
          platform: message.platform,
          ...(message.venue !== undefined ? { venue: message.venue } : {}),
          ...(message.messageId !== undefined ? { replyTo: message.messageId } : {}),
          content,
          // One failure's catalogue text goes with it (a reader in another language is shown it in theirs); several
          // are one text of the host's language.
          ...(failures.length === 1 ? { text: failures[0] } : {}),
          kind: 'system',
        })
        .catch((error: unknown) =>
          log.warn('file notice not delivered', { sessionId: message.sessionId, error: String(error) }),
        );
    };
    handles.agent.use.registerPreprocessor('file-reader', async (message, next) => {
      const attachments = message.attachments;
      if (!attachments?.some((attachment) => attachment.type === 'file')) return next();
      const failures: TextRef[] = [];
      message.attachments = await Promise.all(
        attachments.map(async (attachment) => {
          if (attachment.type !== 'file') return attachment;
          const result = await reader.read(attachment, message.sessionId);
          if (result.failure) {
            failures.push(result.failure);
            log.info('file not read', { sessionId: message.sessionId, reason: handles.i18n.use.t(result.failure) });
          }
          return result.attachment;
        }),
      );
      await notify(message, failures);
      await next();
    });
    handles.tools.use.register(readUploadedFileTool(store, handles.i18n.use));
    handles.events.use.on('session:deleted', async ({ sessionId }) => {
      await store.deleteSession(sessionId);
    });
    const sweep = () =>
      store.sweep().then(
        (removed) => {
          if (removed > 0) log.info('expired uploads removed', { removed });
        },
        (error: unknown) => log.warn('upload sweep failed', { error: String(error) }),
      );
    void sweep();
    const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
    timer.unref();
    handles.lifecycle.use.onDispose(() => clearInterval(timer));
  },
});
