// Voice in: each audio attachment of an input becomes text before the input enters a turn. The transcript is put
// into the input's content, marked as transcribed; the recording stays an attachment (its description says its words
// are in the message, so a model is not told it missed something). Without a transcription endpoint, or when one
// recording fails, the rest of the message goes through and the person is told why (once per session for the first).
import { AalisError, type I18n, type Logger, type TextRef, textRef, translatorOf } from '@aalis/core';
import type { Attachment, IncomingMessage } from '@aalis/schema-message';
import { audioForTranscription, isRecording } from './audio-for-transcription.js';
import { mediaErrors } from './media-texts.js';
import type { Transcriber } from './transcriber.js';

export interface VoiceNote {
  sessionId: string;
  /** Set: told once per session for this key. Unset: told every time. */
  onceKey?: string;
  notice: TextRef;
}

export class VoiceInput {
  constructor(
    private readonly deps: {
      transcriber: Transcriber | undefined;
      i18n: I18n;
      logger: Logger;
      note: (note: VoiceNote) => void;
    },
  ) {}

  async apply(message: IncomingMessage): Promise<void> {
    if (!message.attachments?.some((attachment) => attachment.type === 'audio' || attachment.type === 'file')) return;
    // A recording sent as a file (an MP3 document, a voice file forwarded on QQ) is voice too; this runs before the
    // file reader's preprocessor (media activates first), which then leaves it alone.
    const attachments = await Promise.all(
      message.attachments.map(async (attachment) =>
        attachment.type === 'file' && attachment.data && (await isRecording(attachment.data))
          ? { ...attachment, type: 'audio' as const }
          : attachment,
      ),
    );
    if (!attachments.some((attachment) => attachment.type === 'audio')) return;
    const t = translatorOf(this.deps.i18n);
    const { transcriber } = this.deps;
    if (!transcriber) {
      message.attachments = attachments.map((attachment) =>
        attachment.type === 'audio' ? { ...attachment, description: t('media.voice.notConfigured') } : attachment,
      );
      this.deps.note({
        sessionId: message.sessionId,
        onceKey: 'no-transcription',
        notice: textRef('media.notice.noTranscription'),
      });
      return;
    }
    const transcripts: string[] = [];
    const results = await Promise.all(
      attachments.map(async (attachment): Promise<{ attachment: Attachment; transcript?: string }> => {
        if (attachment.type !== 'audio') return { attachment };
        const name = attachment.name ?? 'voice';
        const started = performance.now();
        try {
          const transcript = await this.transcribe(attachment, transcriber);
          this.deps.logger.info('voice transcribed', {
            sessionId: message.sessionId,
            chars: transcript.length,
            ms: Math.round(performance.now() - started),
          });
          return { attachment: { ...attachment, description: t('media.voice.attachment') }, transcript };
        } catch (error) {
          const reason = transcriber.redact(
            AalisError.isInstance(error) ? error.localized(this.deps.i18n.locale) : String(error),
          );
          this.deps.logger.info('voice not transcribed', { sessionId: message.sessionId, reason });
          this.deps.note({
            sessionId: message.sessionId,
            notice: textRef('media.notice.voiceFailed', { name, reason }),
          });
          return { attachment: { ...attachment, description: t('media.voice.failed', { reason }) } };
        }
      }),
    );
    for (const result of results) {
      if (result.transcript === undefined) continue;
      transcripts.push(
        result.transcript === '' ? t('media.voice.silent') : t('media.voice.transcript', { text: result.transcript }),
      );
    }
    message.attachments = results.map((result) => result.attachment);
    message.content = [message.content, ...transcripts].filter((part) => part.trim() !== '').join('\n');
  }

  private async transcribe(attachment: Attachment, transcriber: Transcriber): Promise<string> {
    const { maxAudioBytes, timeoutMs } = transcriber.config;
    const bytes = audioBytes(attachment);
    if (!bytes) throw mediaErrors.AALIS_MEDIA_NO_AUDIO_DATA();
    if (bytes.length > maxAudioBytes)
      throw mediaErrors.AALIS_MEDIA_AUDIO_TOO_LARGE({ size: String(bytes.length), limit: String(maxAudioBytes) });
    // One bound for the whole of it: conversion, upload, the provider's work and its retries.
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const audio = await audioForTranscription(bytes, attachment.name ?? 'voice', { signal, maxBytes: maxAudioBytes });
      return await transcriber.transcribe(audio, signal);
    } catch (error) {
      if (signal.aborted) throw mediaErrors.AALIS_MEDIA_TRANSCRIPTION_TIMEOUT({ seconds: String(timeoutMs / 1000) });
      throw error;
    }
  }
}

/** The recording's bytes from `data` (base64) or a data: URL; platforms fetch http sources before this. */
function audioBytes(attachment: Attachment): Uint8Array | undefined {
  if (attachment.data) return Buffer.from(attachment.data, 'base64');
  const match = attachment.url ? /^data:[^,]*;base64,(.*)$/s.exec(attachment.url) : null;
  return match ? Buffer.from(match[1]!, 'base64') : undefined;
}
