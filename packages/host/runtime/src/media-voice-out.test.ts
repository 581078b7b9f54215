// Voice replies through the product (startAalis, the default plugin set): a person on QQ (the OneBot protocol server)
// and one on Telegram (the Bot API server) each turn on 语音回复 with /session.set voiceReply on; her next reply
// arrives as text and then as a voice — a `record` segment carrying Ogg/Opus on OneBot, a multipart sendVoice upload
// on Telegram — spoken by a local /audio/speech server that answers MP3 (converted by ffmpeg). The other person's
// session, which did not ask, gets text only. The API key is in no log.
import {
  onebotPrivateMessage,
  startBotApiServer,
  startOneBotImplementation,
  startSpeechTestServer,
  telegramMessage,
  textReply,
} from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const SELF = 10_000;
const TOKEN = '123456:telegram-voice-token';
const API_KEY = 'sk-speech-product-secret-42';
const alice = { id: 11, first_name: 'Alice' };
const fixture = useProductFixture();
const { cleanups } = fixture;

const isOggOpus = (bytes: Buffer) =>
  bytes.subarray(0, 4).toString('ascii') === 'OggS' && bytes.subarray(0, 200).includes('OpusHead');

describe('voice replies through the platforms', () => {
  it('OneBot gets a record segment and Telegram a sendVoice upload, only for the sessions that asked', async () => {
    const tts = await startSpeechTestServer({ answerFormat: 'mp3' });
    cleanups.push(() => tts.close());
    const onebot = await startOneBotImplementation({ selfId: SELF, accessToken: 'onebot-token' });
    cleanups.push(() => onebot.close());
    const telegram = await startBotApiServer({ token: TOKEN, me: { id: 4242, username: 'aalis_voice_bot' } });
    cleanups.push(() => telegram.close());
    const dir = productWorkspace(
      fixture,
      `locale: zh-CN
logLevel: debug
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  media:
    speech: { baseUrl: ${tts.url}, apiKey: ${API_KEY}, model: tts-1, voice: alloy }
  platform-onebot:
    url: ${onebot.url}
    accessToken: onebot-token
    reconnect: { initialMs: 50, maxMs: 200 }
  platform-telegram:
    token: "${TOKEN}"
    apiRoot: ${telegram.url}
    pollTimeoutSeconds: 1
    retryDelayMs: 50
`,
      'aalis-voice-out-',
    );
    const { logs } = await startProduct(fixture, dir);
    await onebot.connected();

    // QQ: the person turns voice replies on, then talks.
    const qq = (text: string) =>
      onebot.push(onebotPrivateMessage({ userId: 77, message: [{ type: 'text', data: { text } }] }));
    qq('/session.set voiceReply on');
    await waitFor(() => onebot.sent.length === 1, { what: 'the setting confirmed' });
    expect(JSON.stringify(onebot.sent[0]!.message)).toContain('语音回复');
    fixture.model.enqueue(textReply('今天**晴**。'));
    qq('今天天气怎么样');
    await waitFor(() => onebot.sent.length === 3, { what: 'the text and the voice', timeoutMs: 15_000 });
    expect(JSON.stringify(onebot.sent[1]!.message)).toContain('今天**晴**。');
    const record = onebot.sent[2]!.message as { type: string; data: { file: string } }[];
    expect(record).toHaveLength(1);
    expect(record[0]!.type).toBe('record');
    expect(record[0]!.data.file).toMatch(/^base64:\/\//);
    expect(isOggOpus(Buffer.from(record[0]!.data.file.slice('base64://'.length), 'base64'))).toBe(true);
    expect(tts.requests[0]!.input).toBe('今天晴。');
    expect(tts.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);

    // Telegram: a session that did not ask gets text only; after /session.set, a voice upload.
    fixture.model.enqueue(textReply('你好，Alice。'));
    telegram.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: '你好' }) });
    await waitFor(() => telegram.sent.length === 1, { what: 'the text reply' });
    expect(telegram.calls.some((call) => call.method === 'sendVoice')).toBe(false);
    telegram.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: '/session.set voiceReply on' }) });
    await waitFor(() => telegram.sent.length === 2, { what: 'the setting confirmed' });
    fixture.model.enqueue(textReply('明天见。'));
    telegram.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: '再见' }) });
    const calls = await telegram.waitForCalls((all) => all.some((call) => call.method === 'sendVoice'), 15_000);
    const upload = calls.find((call) => call.method === 'sendVoice')!.params;
    expect(upload.chat_id).toBe(alice.id);
    const voice = upload.voice as { name: string; type: string; bytes: Buffer };
    expect(voice.type).toBe('audio/ogg');
    expect(isOggOpus(voice.bytes)).toBe(true);
    expect(telegram.sent.at(-1)!.text).toContain('明天见');
    expect(tts.requests).toHaveLength(2);
    expect(logs()).not.toContain(API_KEY);
  });
});
