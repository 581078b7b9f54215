// Voice out through the real agent, gateway and session settings, a local OpenAI-compatible chat server and a local
// /audio/speech server answering real audio: the voiceReply setting (off by default) makes a reply leave with an
// Ogg/Opus voice; a server that answers WAV is converted by ffmpeg; a failing or silent server leaves the text reply
// as it was and the person is told once, without the API key; media.speak for the WebUI's play button.
import { media } from '@aalis/api-media';
import { sessionFields } from '@aalis/api-session-settings';
import { AalisError } from '@aalis/core';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import type { OutgoingMessage } from '@aalis/schema-message';
import { type SpeechTestServer, speechAudio, startSpeechTestServer, textReply } from '@aalis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import mediaPlugin from './index.js';

const API_KEY = 'sk-speech-secret-0123456789';

let harness: Harness | undefined;
let tts: SpeechTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  await tts?.close();
  harness = undefined;
  tts = undefined;
});

async function start(speech: Record<string, unknown> | undefined, server: { answerFormat?: 'wav' } = {}) {
  tts = await startSpeechTestServer(server);
  const config = speech ? { speech: { baseUrl: tts.url, retry: { maxRetries: 0 }, ...speech } } : {};
  harness = await startHarness({ extra: [[mediaPlugin, config]] as never });
  return harness;
}

/** The replies and notes that left while `say` ran. */
async function exchange(h: Harness, text: string): Promise<OutgoingMessage[]> {
  const sent = h.booted.capture('outbound:message');
  await h.say(text);
  return [...sent];
}

const mediaService = (h: Harness) => h.booted.app.services.selected(media)!.impl;
const isOggOpus = (bytes: Buffer) =>
  bytes.subarray(0, 4).toString('ascii') === 'OggS' && bytes.subarray(0, 200).includes('OpusHead');

describe('voice out', () => {
  it('voiceReply (off by default) makes a reply leave with an Ogg/Opus voice of its words', async () => {
    const h = await start({ apiKey: API_KEY, model: 'gpt-4o-mini-tts', voice: 'nova', speed: 1.25 });
    h.server.enqueue(textReply('不说话。'));
    const quiet = await exchange(h, '你好');
    expect(quiet.find((message) => message.kind === 'reply')!.attachments).toBeUndefined();
    expect(tts!.requests).toHaveLength(0);

    expect((await h.command('/session.set voiceReply on'))[0]).toContain('语音回复');
    h.server.enqueue(textReply('# 天气\n\n今天**晴**，见 [预报](https://example.com/a)。\n\n```\ncode\n```'));
    const spoken = await exchange(h, '天气怎么样');
    const reply = spoken.find((message) => message.kind === 'reply')!;
    expect(reply.content).toContain('今天**晴**');
    const voice = reply.attachments?.find((attachment) => attachment.type === 'audio');
    expect(voice).toMatchObject({ type: 'audio', mimeType: 'audio/ogg', name: 'voice.ogg' });
    expect(isOggOpus(Buffer.from(voice!.data!, 'base64'))).toBe(true);
    const request = tts!.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body).toEqual({
      model: 'gpt-4o-mini-tts',
      input: '天气\n\n今天晴，见 预报。',
      voice: 'nova',
      response_format: 'opus',
      speed: 1.25,
    });
    // The stored reply is the text alone: the voice is how it left, not what she said.
    const stored = (await h.history()).filter((message) => message.role === 'assistant').at(-1)!;
    expect(stored.attachments).toBeUndefined();
  });

  it('a server that answers WAV whatever is asked: the voice is converted to Ogg/Opus by ffmpeg', async () => {
    const h = await start({ responseFormat: 'wav' }, { answerFormat: 'wav' });
    await h.command('/session.set voiceReply on');
    h.server.enqueue(textReply('好的，明天八点叫你。'));
    const reply = (await exchange(h, '明早叫我')).find((message) => message.kind === 'reply')!;
    expect(tts!.requests[0]!.responseFormat).toBe('wav');
    expect(isOggOpus(Buffer.from(reply.attachments![0]!.data!, 'base64'))).toBe(true);
  });

  it('a failing server: the text reply leaves as it is, the person is told once, the key in no text', async () => {
    const h = await start({ apiKey: API_KEY });
    await h.command('/session.set voiceReply on');
    tts!.enqueue(
      { status: 400, message: `Incorrect API key provided: ${API_KEY}` },
      { status: 400, message: 'still failing' },
    );
    h.server.enqueue(textReply('第一条。'), textReply('第二条。'));
    const sent = h.booted.capture('outbound:message');
    await h.say('一');
    await h.say('二');
    const replies = sent.filter((message) => message.kind === 'reply');
    expect(replies.map((message) => message.content)).toEqual(['第一条。', '第二条。']);
    expect(replies.every((message) => message.attachments === undefined)).toBe(true);
    // Notes go out beside the turn, not awaited by it.
    await vi.waitFor(() => expect(sent.filter((message) => message.kind === 'system')).toHaveLength(1));
    const note = sent.find((message) => message.kind === 'system')!;
    expect(note.content).toContain('这条回复没能配上语音');
    expect(note.content).toContain('文字回复照常发出');
    expect(JSON.stringify(sent)).not.toContain(API_KEY);
    expect(tts!.requests).toHaveLength(2);
  });

  it('media.speak (the WebUI play button): a voice, nothing to say, a silent server given up after timeoutMs', async () => {
    const h = await start({ timeoutMs: 1_000, maxInputChars: 100 });
    const service = mediaService(h);
    expect(service.speaks?.()).toBe(true);
    const long = `${'第一句话很长。'.repeat(10)}${'后面的'.repeat(20)}`;
    // Answered with audio made beforehand: the 1 s limit (for the silent server below) is then ours alone.
    tts!.enqueue({ bytes: await speechAudio('ready', 'opus'), contentType: 'audio/ogg' });
    const voice = await service.speak!(long);
    expect(isOggOpus(Buffer.from(voice.data!, 'base64'))).toBe(true);
    // Cut at the last sentence end inside maxInputChars.
    expect(tts!.requests[0]!.input).toBe('第一句话很长。'.repeat(10));
    await expect(service.speak!('```\nls\n```')).rejects.toMatchObject({ code: 'AALIS_MEDIA_SPEECH_NOTHING_TO_SAY' });
    tts!.enqueue({ hang: true });
    const error = await service.speak!('你好').catch((caught: unknown) => caught);
    expect(AalisError.isInstance(error) && error.code).toBe('AALIS_MEDIA_SPEECH_TIMEOUT');
  });

  it('without plugins.media.speech: no voiceReply setting, and media.speak says how to configure it', async () => {
    const h = await start(undefined);
    const service = mediaService(h);
    expect(service.speaks?.()).toBe(false);
    expect(h.booted.app.services.selected(sessionFields)!.impl.field('voiceReply')).toBeUndefined();
    const error = await service.speak!('你好').catch((caught: unknown) => caught);
    expect(AalisError.isInstance(error) && error.localized('zh-CN')).toContain('plugins.media.speech');
  });
});
