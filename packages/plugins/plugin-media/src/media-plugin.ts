// The plugin: the media service (image descriptions cached by content), agent:llm:before giving a model that
// cannot see a description of each image, the describe_image tool, and the notes a person gets — once per session
// when no model can see, once per image that could not be described.
import '@aalis/api-agent';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { llm } from '@aalis/api-llm';
import { media, VOICE_REPLY_SETTING } from '@aalis/api-media';
import { memory } from '@aalis/api-memory';
import { sessionFields } from '@aalis/api-session-settings';
import { openStore, storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { config, definePlugin, i18n, lifecycle, logger, optional, provide, services, textRef } from '@aalis/core';
import { describeImageTool } from './describe-image-tool.js';
import { ImageDescriber } from './image-describer.js';
import { ImagesForModel } from './images-for-model.js';
import { mediaConfigSchema } from './media-config.js';
import { mediaErrors } from './media-texts.js';
import { postgresDescriptionStore } from './postgres-description-store.js';
import { sqliteDescriptionStore } from './sqlite-description-store.js';
import { VoiceInput, type VoiceNote } from './voice-input.js';
import type { VoiceOutput } from './voice-output.js';
import './media-texts.js';

export const MEDIA_PLUGIN = '@aalis/plugin-media';

/** Sessions whose notes are remembered (told once); the oldest are forgotten past this. */
const TOLD_LIMIT = 10_000;
/** Bounds of a voice made ready for a platform when no speech endpoint is configured (its defaults otherwise). */
const VOICE_TIMEOUT_MS = 60_000;
const VOICE_MAX_BYTES = 10 * 1024 * 1024;

export default definePlugin({
  name: MEDIA_PLUGIN,
  provides: [media],
  uses: {
    hooks,
    storage,
    config,
    i18n,
    logger,
    lifecycle,
    provide,
    services,
    tools: optional(tools),
    memory: optional(memory),
    gateway: optional(gateway),
    llm: optional(llm),
    sessionFields: optional(sessionFields),
  },
  config: mediaConfigSchema,
  async apply(handles) {
    const log = handles.logger.use;
    const store = await openStore(handles.storage.use, {
      sqlite: sqliteDescriptionStore,
      postgres: postgresDescriptionStore,
    });
    let fallbackLogged = false;
    const describer = new ImageDescriber({
      store,
      config: handles.config.use,
      providers: () => handles.services.use.providers(llm),
      i18n: handles.i18n.use,
      onFallback: (message) => {
        if (!fallbackLogged) log.warn(message);
        fallbackLogged = true;
      },
    });
    // Where each session's inputs come from, so that a note goes back the same way.
    const origins = new Map<string, { platform: string; venue?: string }>();
    const told = new Set<string>();
    const note = ({ sessionId, onceKey, notice }: VoiceNote) => {
      if (onceKey !== undefined) {
        const key = `${sessionId}\n${onceKey}`;
        if (told.has(key)) return;
        told.add(key);
        if (told.size > TOLD_LIMIT) told.delete(told.values().next().value!);
      }
      const content = handles.i18n.use.t(notice);
      log.info('media note', { sessionId, note: content });
      if (!handles.gateway.available) return;
      const origin = origins.get(sessionId);
      void handles.gateway.use
        .dispatchOutbound({
          sessionId,
          ...(origin ? { platform: origin.platform } : {}),
          ...(origin?.venue !== undefined ? { venue: origin.venue } : {}),
          content,
          // Its catalogue text: a reader in another language (the WebUI) is shown it in theirs.
          text: notice,
          kind: 'system',
        })
        .catch((error: unknown) => log.warn('media note not delivered', { sessionId, error: String(error) }));
    };
    const images = new ImagesForModel(describer, handles.i18n.use, note);
    const transcriptionConfig = handles.config.use.transcription;
    // The transcription client (and the provider HTTP layer under it) is loaded only when an endpoint is configured:
    // a plain start stays as light as before (runtime's lazy-plugins test).
    const transcriber = transcriptionConfig
      ? new (await import('./transcriber.js')).Transcriber(transcriptionConfig, {
          i18n: handles.i18n.use,
          logger: log,
          plugin: `${MEDIA_PLUGIN}.transcription`,
        })
      : undefined;
    if (transcriber) handles.lifecycle.use.onDispose(() => transcriber.close());
    const voice = new VoiceInput({ transcriber, i18n: handles.i18n.use, logger: log, note });
    // Voice out, loaded (with its speech client) only when a text-to-speech endpoint is configured.
    const speechConfig = handles.config.use.speech;
    let voiceOut: VoiceOutput | undefined;
    if (speechConfig) {
      const [{ Synthesizer }, { VoiceOutput }] = await Promise.all([
        import('./synthesizer.js'),
        import('./voice-output.js'),
      ]);
      const synthesizer = new Synthesizer(speechConfig, {
        i18n: handles.i18n.use,
        logger: log,
        plugin: `${MEDIA_PLUGIN}.speech`,
      });
      handles.lifecycle.use.onDispose(() => synthesizer.close());
      voiceOut = new VoiceOutput({
        synthesizer,
        i18n: handles.i18n.use,
        logger: log,
        note,
        wantsVoice: async (message) => {
          if (!handles.sessionFields.available || !handles.sessionFields.use.field(VOICE_REPLY_SETTING)) return false;
          try {
            const scope = {
              sessionId: message.sessionId,
              ...(message.platform !== undefined ? { platform: message.platform } : {}),
              ...(message.venue !== undefined ? { venue: message.venue } : {}),
            };
            return (await handles.sessionFields.use.get(scope, VOICE_REPLY_SETTING)).value === true;
          } catch (error) {
            log.warn('cannot read the voiceReply setting', { sessionId: message.sessionId, error: String(error) });
            return false;
          }
        },
      });
      handles.sessionFields.use.register({
        key: VOICE_REPLY_SETTING,
        type: 'boolean',
        label: textRef('media.field.voiceReply'),
        description: textRef('media.field.voiceReply.description'),
        visibility: 'common',
        level: 0,
        default: false,
      });
      handles.hooks.use.middleware('outbound:dispatch', async ({ message }, next) => {
        await voiceOut!.apply(message);
        await next();
      });
    }

    handles.provide.use.service(media, {
      async describe(attachment, options = {}) {
        try {
          return (await describer.describe(attachment, options)).text;
        } catch (error) {
          log.info('image not described', { sessionId: options.sessionId, error: String(error) });
          return undefined;
        }
      },
      transcribes: () => transcriber !== undefined,
      speaks: () => voiceOut !== undefined,
      async speak(text, options = {}) {
        if (!voiceOut) throw mediaErrors.AALIS_MEDIA_SPEECH_NOT_CONFIGURED();
        const voice = await voiceOut.speak(text, options.sessionId);
        if (!voice) throw mediaErrors.AALIS_MEDIA_SPEECH_NOTHING_TO_SAY();
        return voice;
      },
      async voiceAs(attachment, format, options = {}) {
        const { voiceAs } = await import('./voice-formats.js');
        const signals = [AbortSignal.timeout(speechConfig?.timeoutMs ?? VOICE_TIMEOUT_MS)];
        if (options.signal) signals.push(options.signal);
        return voiceAs(attachment, format, {
          signal: AbortSignal.any(signals),
          maxBytes: speechConfig?.maxAudioBytes ?? VOICE_MAX_BYTES,
        });
      },
    });
    handles.hooks.use.middleware('agent:input:before', async ({ message }, next) => {
      origins.set(message.sessionId, {
        platform: message.platform,
        ...(message.venue !== undefined ? { venue: message.venue } : {}),
      });
      if (origins.size > TOLD_LIMIT) origins.delete(origins.keys().next().value!);
      if (message.attachments?.some((attachment) => attachment.type === 'image'))
        images.imagesArrived(message.sessionId);
      await voice.apply(message);
      await next();
    });
    handles.hooks.use.middleware('agent:tool:after', async (context, next) => {
      if (context.result.attachments?.some((attachment) => attachment.type === 'image'))
        images.imagesArrived(context.toolCallContext.sessionId);
      await next();
    });
    handles.hooks.use.middleware('agent:llm:before', async (context, next) => {
      await images.apply(context);
      await next();
    });
    if (handles.tools.available) {
      handles.tools.use.register(
        describeImageTool(
          describer,
          () => (handles.memory.available ? handles.memory.use : undefined),
          handles.i18n.use,
        ),
      );
    }
  },
});
