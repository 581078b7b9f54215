// A QQ voice message through the product: the OneBot protocol server pushes a `record` segment carrying a SILK
// recording made in the test (silk-wasm), the runtime's OneBot adapter fetches it, plugin-media decodes it and sends it
// to a local /audio/transcriptions server, and the model gets the transcript as the input. The apiKey is in no log.
import {
  onebotPrivateMessage,
  startOneBotImplementation,
  startTranscriptionTestServer,
  textReply,
} from '@aalis/testing';
import { encode as encodeSilk } from 'silk-wasm';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const SELF = 10_000;
const API_KEY = 'sk-transcribe-secret-987654321';
const fixture = useProductFixture();
const { cleanups } = fixture;

/** A second of a 440 Hz tone, 16-bit mono PCM at 24 kHz. */
function tone(): Buffer {
  const rate = 24_000;
  const pcm = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++) pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return pcm;
}

describe('QQ voice messages through the product', () => {
  it('a record segment (SILK) becomes the transcript the model reads', async () => {
    const stt = await startTranscriptionTestServer();
    cleanups.push(() => stt.close());
    stt.enqueue({ text: '今天天气怎么样' });
    const implementation = await startOneBotImplementation({ selfId: SELF, accessToken: 'onebot-token' });
    cleanups.push(() => implementation.close());
    const dir = productWorkspace(
      fixture,
      `locale: zh-CN
logLevel: debug
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  media:
    transcription: { baseUrl: ${stt.url}, apiKey: ${API_KEY}, model: whisper-1, language: zh }
  platform-onebot:
    url: ${implementation.url}
    accessToken: onebot-token
    reconnect: { initialMs: 50, maxMs: 200 }
`,
      'aalis-onebot-voice-',
    );
    const { logs } = await startProduct(fixture, dir);
    await implementation.connected();
    const silk = Buffer.from((await encodeSilk(tone(), 24_000)).data);
    fixture.model.enqueue(textReply('晴天。'));
    implementation.push(
      onebotPrivateMessage({
        userId: 77,
        message: [{ type: 'record', data: { file: `base64://${silk.toString('base64')}` } }],
      }),
    );
    await waitFor(() => implementation.sent.length === 1, { what: 'the reply', timeoutMs: 15_000 });
    const upload = stt.requests[0]!;
    expect(upload.model).toBe('whisper-1');
    expect(upload.language).toBe('zh');
    expect(upload.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(upload.file!.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    const users = (fixture.model.chatBodies()[0]!.messages as { role: string; content: unknown }[]).filter(
      (message) => message.role === 'user',
    );
    expect(JSON.stringify(users.at(-1)!.content)).toContain('[语音转写] 今天天气怎么样');
    expect(logs()).not.toContain(API_KEY);
  });
});
