// @aalis/api-media: turns attachments into text for models that cannot see them. A media plugin decides per call
// (from agent:llm:before's acceptsImages) whether a turn's attachments go as images or as descriptions.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';

export interface DescribeOptions {
  signal?: AbortSignal;
  /** The session the description is made for (accounting, and where a failure is told). */
  sessionId?: string;
  /** A question about the image ("what does the sign say?"); without, a general description. */
  question?: string;
}

/** Encodings platforms take for a voice message. */
export type VoiceFormat = 'ogg-opus' | 'silk';

/** A voice ready for a platform's voice message. */
export interface PlatformVoice {
  bytes: Uint8Array;
  /** 'audio/ogg' or 'audio/silk'. */
  mimeType: string;
  /** The file name extension without the dot: 'ogg', 'silk'. */
  extension: string;
  /** How long it plays, in milliseconds. */
  durationMs: number;
  /** Loudness over time: at most 256 values from 0 (silent) to 255, one per 100 ms or more (Discord's waveform). */
  waveform: Uint8Array;
}

export interface MediaService {
  /**
   * A text description of an attachment (an image; cached by content by the implementation, so the same image
   * with the same question costs no second model call); undefined when it cannot describe it.
   */
  describe(attachment: Attachment, options?: DescribeOptions): Promise<string | undefined>;
  /**
   * Whether a voice recording sent with a message becomes its text (a speech-to-text endpoint is configured), so a
   * front door can offer recording. Absent: it does not.
   */
  transcribes?(): boolean;
  /**
   * Whether text can be spoken (a text-to-speech endpoint is configured), so a front door can offer playing a reply
   * and the voiceReply session setting exists. Absent: it cannot.
   */
  speaks?(): boolean;
  /**
   * The text (Markdown; its marks and code blocks are not read) spoken, as an Ogg/Opus `audio` attachment with its
   * bytes in `data`. Rejects with a coded error: none configured, nothing speakable, the endpoint failed or timed out.
   */
  speak?(text: string, options?: { sessionId?: string }): Promise<Attachment>;
  /**
   * A voice (an `audio` attachment, such as `speak` makes) in the form a platform's voice message takes: `ogg-opus`
   * (Discord, Slack, Lark, DingTalk, Satori) or `silk` (QQ's official bots), with its length and a waveform, which
   * several platforms' voice messages require. Rejects with a coded error (not audio, cannot be converted, too large).
   */
  voiceAs?(attachment: Attachment, format: VoiceFormat, options?: { signal?: AbortSignal }): Promise<PlatformVoice>;
}

export const media: ServiceDescriptor<MediaService> = defineService<MediaService>('media');

/** Tool name of the media implementation's second look at an image from the history. */
export const DESCRIBE_IMAGE_TOOL = 'describe_image';

/** The session setting (a boolean) that makes her replies come with voice where the platform carries it. */
export const VOICE_REPLY_SETTING = 'voiceReply';
