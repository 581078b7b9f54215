// plugins.media: which model describes images, and the bounds on what it is given and what it writes.
import { type Infer, s } from '@aalis/core';
import { bearerKeySchema, caFileSchema, proxySchema, retrySchema } from '@aalis/http-transport/config-schema';

/** Speech to text: an OpenAI-compatible POST <baseUrl>/audio/transcriptions (OpenAI, Groq, whisper.cpp's server …). */
export const transcriptionConfigSchema = s
  .object({
    baseUrl: s
      .string()
      .nonEmpty()
      .describe(
        'Base URL of an OpenAI-compatible speech-to-text API; /audio/transcriptions is appended (e.g. https://api.openai.com/v1, or http://127.0.0.1:8080/v1 for a local whisper server).',
      ),
    apiKey: bearerKeySchema,
    model: s
      .string()
      .nonEmpty()
      .default('whisper-1')
      .describe('The transcription model (whisper-1, whisper-large-v3 …).'),
    language: s
      .string()
      .optional()
      .describe('ISO-639-1 language of the speech (zh, en …); unset lets the provider detect it.'),
    maxAudioBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(25 * 1024 * 1024)
      .describe('Largest recording transcribed, in bytes (OpenAI takes up to 25 MiB).'),
    timeoutMs: s
      .number()
      .integer()
      .min(1_000)
      .default(120_000)
      .describe('How long transcribing one recording may take, conversion and retries included.'),
    maxTranscriptChars: s
      .number()
      .integer()
      .min(100)
      .default(20_000)
      .describe('A transcript is cut to this many characters.'),
    proxy: proxySchema,
    caFile: caFileSchema,
    retry: retrySchema,
  })
  .optional()
  .describe(
    'Speech to text for voice messages (QQ record, Telegram voice, audio files, WebUI recordings). Unset: a person who sends voice is told once per session that it cannot be read.',
  );

/** Text to speech: an OpenAI-compatible POST <baseUrl>/audio/speech (OpenAI, Kokoro-FastAPI, openedai-speech …). */
export const speechConfigSchema = s
  .object({
    baseUrl: s
      .string()
      .nonEmpty()
      .describe(
        'Base URL of an OpenAI-compatible text-to-speech API; /audio/speech is appended (e.g. https://api.openai.com/v1, or http://127.0.0.1:8880/v1 for a local Kokoro server).',
      ),
    apiKey: bearerKeySchema,
    model: s.string().nonEmpty().default('tts-1').describe('The speech model (tts-1, gpt-4o-mini-tts, kokoro …).'),
    voice: s.string().nonEmpty().default('alloy').describe('The voice (alloy, nova … or a local server’s voice name).'),
    responseFormat: s
      .enum(['opus', 'mp3', 'aac', 'flac', 'wav'])
      .default('opus')
      .describe(
        'The format asked of the server. Voice goes out as Ogg/Opus (what QQ, Telegram and browsers play); any other answer is converted by ffmpeg.',
      ),
    speed: s
      .number()
      .min(0.25)
      .max(4)
      .optional()
      .describe('Speaking speed, 0.25–4 (1 is normal); unset: the server’s.'),
    maxInputChars: s
      .number()
      .integer()
      .min(100)
      .max(100_000)
      .default(4_096)
      .describe('A reply longer than this is spoken up to here (OpenAI takes at most 4096 characters).'),
    maxAudioBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(10 * 1024 * 1024)
      .describe('Largest voice read from the server or made by conversion, in bytes.'),
    timeoutMs: s
      .number()
      .integer()
      .min(1_000)
      .default(60_000)
      .describe('How long speaking one reply may take, conversion and retries included.'),
    proxy: proxySchema,
    caFile: caFileSchema,
    retry: retrySchema,
  })
  .optional()
  .describe(
    'Text to speech for voice replies: with it, the session setting voiceReply (语音回复) makes her replies come with a voice message on platforms that carry one (QQ through OneBot or its official bots, Telegram, Discord, Slack, Feishu/Lark, DingTalk, Satori; not WeCom), and the WebUI shows a play button on replies. Unset: no voice out.',
  );

export const mediaConfigSchema = s
  .object({
    describeModel: s
      .string()
      .optional()
      .describe(
        'The model that describes images for models that cannot see (<provider>/<model>); default: the first configured model with vision.',
      ),
    maxImageBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(20 * 1024 * 1024)
      .describe('Largest image described, in bytes.'),
    maxDescriptionChars: s
      .number()
      .integer()
      .min(100)
      .default(2_000)
      .describe('A description is cut to this many characters.'),
    describeTimeoutMs: s
      .number()
      .integer()
      .min(1_000)
      .default(60_000)
      .describe('How long describing one image may take.'),
    transcription: transcriptionConfigSchema,
    speech: speechConfigSchema,
  })
  .describe('Images, voice and documents for models that cannot take them.');

export type MediaConfig = Infer<typeof mediaConfigSchema>;
