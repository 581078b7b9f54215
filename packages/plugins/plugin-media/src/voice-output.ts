// Voice out: a reply of a session whose voiceReply setting (语音回复) is on leaves with a voice message as well — the
// reply spoken by the text-to-speech endpoint, attached as Ogg/Opus audio, which platforms that carry voice send as
// one (OneBot's record segment, Telegram's sendVoice). The text reply always goes: a voice that cannot be made is
// logged and the person told once per session why, in their language.
import { AalisError, type I18n, type Logger, textRef } from '@aalis/core';
import type { Attachment, OutgoingMessage } from '@aalis/schema-message';
import { mediaErrors } from './media-texts.js';
import type { Synthesizer } from './synthesizer.js';
import type { VoiceNote } from './voice-input.js';

/** Platforms that play a reply on demand (the WebUI's play button), so no voice is made ahead for them. */
const ON_DEMAND_PLATFORMS = new Set(['webui']);
/** Platforms whose bots have no voice message (WeCom's intelligent bots): a voice made for them would go nowhere. */
const VOICELESS_PLATFORMS = new Set(['wecom']);

export class VoiceOutput {
  constructor(
    private readonly deps: {
      synthesizer: Synthesizer;
      i18n: I18n;
      logger: Logger;
      note: (note: VoiceNote) => void;
      /** Whether the session asked for voice replies (its effective voiceReply). */
      wantsVoice: (message: OutgoingMessage) => Promise<boolean>;
    },
  ) {}

  /** Attaches the spoken reply to a reply message of a session that wants voice. */
  async apply(message: OutgoingMessage): Promise<void> {
    if (message.kind !== 'reply' || message.content.trim() === '') return;
    if (
      message.platform !== undefined &&
      (ON_DEMAND_PLATFORMS.has(message.platform) || VOICELESS_PLATFORMS.has(message.platform))
    )
      return;
    if (message.attachments?.some((attachment) => attachment.type === 'audio')) return;
    if (!(await this.deps.wantsVoice(message))) return;
    try {
      const voice = await this.speak(message.content, message.sessionId);
      if (voice) message.attachments = [...(message.attachments ?? []), voice];
    } catch (error) {
      const reason = this.deps.synthesizer.redact(
        AalisError.isInstance(error) ? error.localized(this.deps.i18n.locale) : String(error),
      );
      this.deps.logger.warn('voice reply not made', {
        sessionId: message.sessionId,
        ...(AalisError.isInstance(error) ? { code: error.code } : {}),
        reason,
      });
      this.deps.note({
        sessionId: message.sessionId,
        onceKey: 'speech-failed',
        notice: textRef('media.notice.speechFailed', { reason }),
      });
    }
  }

  /** The text spoken as an audio attachment; undefined when there is nothing to speak. Rejects with a coded error. */
  async speak(text: string, sessionId?: string): Promise<Attachment | undefined> {
    const { synthesizer } = this.deps;
    const { timeoutMs } = synthesizer.config;
    const signal = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    try {
      const voice = await synthesizer.speak(text, signal);
      if (!voice) return undefined;
      this.deps.logger.info('voice reply made', {
        ...(sessionId !== undefined ? { sessionId } : {}),
        chars: voice.spokenChars,
        bytes: voice.bytes.length,
        ms: Math.round(performance.now() - started),
      });
      return {
        type: 'audio',
        mimeType: voice.mimeType,
        data: Buffer.from(voice.bytes).toString('base64'),
        name: 'voice.ogg',
      };
    } catch (error) {
      if (signal.aborted) throw mediaErrors.AALIS_MEDIA_SPEECH_TIMEOUT({ seconds: String(timeoutMs / 1000) });
      throw error;
    }
  }
}
