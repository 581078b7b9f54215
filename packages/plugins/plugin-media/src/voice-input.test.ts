// Voice in through the real agent, a local OpenAI-compatible chat server and a local /audio/transcriptions server:
// what reaches the model for a WAV, a QQ SILK recording (decoded to WAV before upload) and an AIFF (converted by
// ffmpeg), the multipart request the provider gets, no endpoint configured (told once per session), a failing provider
// (its sentence, the API key hidden) and a silent one (bounded by timeoutMs) — the rest of the message goes through.

import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import fileReaderPlugin from '@aalis/plugin-file-reader';
import {
  type OpenAiTestServer,
  startOpenAiTestServer,
  startTranscriptionTestServer,
  type TranscriptionTestServer,
  textReply,
} from '@aalis/testing';
import { encode as encodeSilk } from 'silk-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { wavFromPcm } from './audio-for-transcription.js';
import mediaPlugin from './index.js';

const API_KEY = 'sk-voice-secret-0123456789';

/** Half a second of a 440 Hz tone, 16-bit mono PCM at `rate`. */
function tone(rate: number): Buffer {
  const samples = rate / 2;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return pcm;
}

const WAV = Buffer.from(wavFromPcm(tone(16_000), 16_000));

let harness: Harness | undefined;
let chat: OpenAiTestServer | undefined;
let stt: TranscriptionTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  await chat?.close();
  await stt?.close();
  harness = undefined;
  chat = undefined;
  stt = undefined;
});

async function start(transcription: Record<string, unknown> | undefined, { fileReader = false } = {}) {
  chat = await startOpenAiTestServer();
  stt = await startTranscriptionTestServer();
  const config = transcription ? { transcription: { baseUrl: stt.url, ...transcription } } : {};
  harness = await startHarness({
    server: chat,
    extra: [[mediaPlugin, config], ...(fileReader ? [fileReaderPlugin] : [])] as never,
  });
  return harness;
}

function lastUserText(): string {
  const messages = chat!.chatBodies().at(-1)!.messages as Array<{ role: string; content: unknown }>;
  const content = messages.filter((message) => message.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

const audio = (bytes: Buffer, name: string, mimeType = 'audio/wav') => ({
  type: 'audio' as const,
  mimeType,
  name,
  data: bytes.toString('base64'),
});

describe('voice in', () => {
  it('a WAV recording: a real multipart upload, the transcript is the input, the recording kept', async () => {
    const h = await start({ apiKey: API_KEY, model: 'whisper-large-v3', language: 'zh' });
    stt!.enqueue({ text: ' 明天早上八点叫我起床 ' });
    chat!.enqueue(textReply('好的'));
    await h.say('', { attachments: [audio(WAV, 'voice.wav')] });
    expect(stt!.requests).toHaveLength(1);
    const request = stt!.requests[0]!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.model).toBe('whisper-large-v3');
    expect(request.language).toBe('zh');
    expect(request.responseFormat).toBe('json');
    expect(request.file!.name).toBe('voice.wav');
    expect(request.file!.bytes.equals(WAV)).toBe(true);
    const sent = lastUserText();
    expect(sent).toContain('[语音转写] 明天早上八点叫我起床');
    expect(sent).toContain('[附件 voice.wav：语音消息，已转写成文字');
    const stored = (await h.history()).find((message) => message.role === 'user')!;
    // The stored input is the transcript (the agent stamps the time in front).
    expect(stored.content).toMatch(/\[语音转写\] 明天早上八点叫我起床$/);
    expect(stored.attachments?.[0]?.type).toBe('audio');
    expect(stored.attachments?.[0]?.data).toBe(WAV.toString('base64'));
  });

  it("QQ's SILK is decoded to WAV before the upload; text beside it goes through too", async () => {
    const h = await start({});
    // silk-wasm writes QQ's flavour (0x02 before "#!SILK_V3"); QQ often names these files .amr.
    const qq = Buffer.from((await encodeSilk(tone(24_000), 24_000)).data);
    expect(qq.subarray(0, 10).toString('latin1')).toBe('\x02#!SILK_V3');
    stt!.enqueue({ text: 'hello there' });
    chat!.enqueue(textReply('hi'));
    await h.say('listen:', { attachments: [audio(qq, 'A1B2C3.amr', 'audio/amr')] });
    const file = stt!.requests[0]!.file!;
    expect(file.name).toBe('A1B2C3.wav');
    expect(file.type).toBe('audio/wav');
    expect(file.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(file.bytes.readUInt32LE(24)).toBe(24_000);
    // Half a second of speech at 24 kHz, 16-bit: about 24,000 bytes of samples.
    expect(file.bytes.length - 44).toBeGreaterThan(20_000);
    expect(stt!.requests[0]!.headers.authorization).toBeUndefined();
    expect(lastUserText()).toContain('listen:\n[语音转写] hello there');
  });

  it('a type transcription servers do not read (AIFF) is converted by ffmpeg to WAV', async () => {
    const h = await start({});
    // An AIFF header around big-endian samples: a format file-type knows and OpenAI does not take.
    const pcm = tone(16_000);
    const samples = Buffer.alloc(pcm.length);
    for (let i = 0; i < pcm.length; i += 2) samples.writeInt16BE(pcm.readInt16LE(i), i);
    const comm = Buffer.alloc(26);
    comm.write('COMM', 0, 'ascii');
    comm.writeUInt32BE(18, 4);
    comm.writeUInt16BE(1, 8);
    comm.writeUInt32BE(samples.length / 2, 10);
    comm.writeUInt16BE(16, 14);
    // 16000 as an 80-bit extended float.
    Buffer.from([0x40, 0x0c, 0xfa, 0, 0, 0, 0, 0, 0, 0]).copy(comm, 16);
    const ssnd = Buffer.alloc(16);
    ssnd.write('SSND', 0, 'ascii');
    ssnd.writeUInt32BE(8 + samples.length, 4);
    const body = Buffer.concat([Buffer.from('AIFF', 'ascii'), comm, ssnd, samples]);
    const form = Buffer.alloc(8);
    form.write('FORM', 0, 'ascii');
    form.writeUInt32BE(body.length, 4);
    stt!.enqueue({ text: 'converted' });
    chat!.enqueue(textReply('ok'));
    await h.say('', { attachments: [audio(Buffer.concat([form, body]), 'memo.aiff', 'audio/aiff')] });
    const file = stt!.requests[0]!.file!;
    expect(file.name).toBe('memo.wav');
    expect(file.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(file.bytes.readUInt32LE(24)).toBe(16_000);
    expect(lastUserText()).toContain('[语音转写] converted');
  });

  it('a recording sent as a file (with the file reader running) is transcribed too', async () => {
    const h = await start({}, { fileReader: true });
    stt!.enqueue({ text: 'from a file' });
    chat!.enqueue(textReply('ok'));
    await h.say('', { attachments: [{ type: 'file', name: 'memo.wav', data: WAV.toString('base64') }] });
    expect(stt!.requests[0]!.file!.bytes.equals(WAV)).toBe(true);
    expect(lastUserText()).toContain('[语音转写] from a file');
    expect(lastUserText()).toContain('[附件 memo.wav：语音消息，已转写成文字');
  });

  it('with no endpoint configured the person is told once per session; the text still reaches the model', async () => {
    const h = await start(undefined);
    const outbound = h.booted.capture('outbound:message');
    chat!.enqueue(textReply('a'), textReply('b'));
    await h.say('first words', { attachments: [audio(WAV, 'voice.wav')] });
    await h.say('second words', { attachments: [audio(WAV, 'voice2.wav')] });
    expect(stt!.requests).toHaveLength(0);
    expect(lastUserText()).toContain('second words');
    expect(lastUserText()).toContain('[附件 voice2.wav：语音消息，没有转写：这里没有配置语音转文字。]');
    const notes = outbound.filter((message) => message.kind === 'system');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.content).toContain('这里没有配置语音转文字，你发的语音她听不到');
    expect(notes[0]!.content).toContain('plugins.media.transcription');
  });

  it('a failing provider: its sentence to the person and the model, the API key never shown, the text kept', async () => {
    const h = await start({ apiKey: API_KEY, retry: { maxRetries: 0 } });
    const outbound = h.booted.capture('outbound:message');
    stt!.enqueue({ status: 401, message: `Incorrect API key provided: ${API_KEY}` });
    chat!.enqueue(textReply('ok'));
    await h.say('see attached', { attachments: [audio(WAV, 'voice.wav')] });
    const note = outbound.find((message) => message.kind === 'system')!;
    expect(note.content).toContain('语音 voice.wav 没能转成文字：');
    expect(note.content).toContain('消息的其余部分照常发出。');
    expect(note.content).not.toContain(API_KEY);
    const sent = lastUserText();
    expect(sent).toContain('see attached');
    expect(sent).toContain('[附件 voice.wav：语音消息，没能转写：');
    expect(sent).not.toContain(API_KEY);
    expect((await h.history()).find((message) => message.role === 'user')?.attachments?.[0]?.data).toBe(
      WAV.toString('base64'),
    );
  });

  it('a provider that never answers is given up after timeoutMs', async () => {
    const h = await start({ timeoutMs: 1_000 });
    const outbound = h.booted.capture('outbound:message');
    stt!.enqueue({ hang: true });
    chat!.enqueue(textReply('ok'));
    await h.say('hello', { attachments: [audio(WAV, 'voice.wav')] });
    expect(outbound.find((message) => message.kind === 'system')!.content).toContain(
      '语音转文字服务 1 秒内没有转完（上限 plugins.media.transcription.timeoutMs）。',
    );
    expect(lastUserText()).toContain('hello');
  });

  it('a file that is not a recording, and one over maxAudioBytes, are refused without an upload', async () => {
    const h = await start({ maxAudioBytes: 2_048 });
    const outbound = h.booted.capture('outbound:message');
    chat!.enqueue(textReply('ok'));
    await h.say('two', {
      attachments: [audio(Buffer.from('just some text, not sound'), 'fake.ogg', 'audio/ogg'), audio(WAV, 'long.wav')],
    });
    expect(stt!.requests).toHaveLength(0);
    const notes = outbound.filter((message) => message.kind === 'system').map((message) => message.content);
    expect(notes.some((note) => note.includes('语音 fake.ogg 没能转成文字：它不是录音'))).toBe(true);
    expect(
      notes.some((note) =>
        note.includes(`它有 ${WAV.length} 字节，超过了上限 plugins.media.transcription.maxAudioBytes = 2048 字节。`),
      ),
    ).toBe(true);
    expect(lastUserText()).toContain('two');
  });

  it('a transcription baseUrl that is not an http(s) URL is a coded configuration error, its password hidden', async () => {
    chat = await startOpenAiTestServer();
    const failed = startHarness({
      server: chat,
      extra: [[mediaPlugin, { transcription: { baseUrl: 'ftp://user:hunter2pass@example.com/v1' } }]] as never,
    }).then(
      () => 'started',
      (error: unknown) => String(error),
    );
    const text = await failed;
    expect(text).toContain('"state":"error"');
    expect(text).toContain('AALIS_MEDIA_TRANSCRIPTION_URL_INVALID');
    expect(text).toContain('"problem":"scheme"');
    expect(text).toContain('ftp://***@example.com/v1');
    expect(text).not.toContain('hunter2pass');
  });
});
