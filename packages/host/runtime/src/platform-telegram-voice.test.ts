// A Telegram voice note through the product: the Bot API server serves an OGG/Opus recording made in the test (by
// Debian's ffmpeg, as Telegram's clients record them), the adapter downloads it, plugin-media sends it unchanged to a
// local /audio/transcriptions server, and the model reads the transcript. English host: the English marker.
import { execFileSync } from 'node:child_process';
import { startBotApiServer, startTranscriptionTestServer, telegramMessage, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { productWorkspace, startProduct, useProductFixture } from './product-host.case.js';
import { waitFor } from './spawn-aalis.case.js';

const TOKEN = '123456:telegram-secret-token';
const BOT = { id: 424242, username: 'aalis_test_bot', first_name: 'Aalis' };
const fixture = useProductFixture();
const { cleanups } = fixture;

/** Half a second of a tone as OGG/Opus. */
function oggOpus(): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=0.5',
      '-c:a',
      'libopus',
      '-f',
      'ogg',
      'pipe:1',
    ],
    { maxBuffer: 1024 * 1024 },
  );
}

describe('Telegram voice notes through the product', () => {
  it('a voice note (OGG/Opus) is uploaded as it is and becomes the transcript the model reads', async () => {
    const stt = await startTranscriptionTestServer();
    cleanups.push(() => stt.close());
    stt.enqueue({ text: 'remind me to water the plants' });
    const api = await startBotApiServer({ token: TOKEN, me: BOT });
    cleanups.push(() => api.close());
    const dir = productWorkspace(
      fixture,
      `locale: en
logLevel: debug
llm: { baseUrl: ${fixture.model.url}, model: test-model }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  media:
    transcription: { baseUrl: ${stt.url}, model: whisper-1 }
  platform-telegram:
    token: "${TOKEN}"
    apiRoot: ${api.url}
    pollTimeoutSeconds: 1
    retryDelayMs: 50
`,
      'aalis-telegram-voice-',
    );
    await startProduct(fixture, dir);
    const ogg = oggOpus();
    api.addFile('voice-1', ogg);
    fixture.model.enqueue(textReply('I will remind you.'));
    api.push({
      message: {
        ...telegramMessage({ chatId: 11, from: { id: 11, first_name: 'Alice' } }),
        voice: { file_id: 'voice-1', file_unique_id: 'v1', duration: 1, mime_type: 'audio/ogg', file_size: ogg.length },
      },
    });
    await waitFor(() => api.sent.length === 1, { what: 'the reply', timeoutMs: 15_000 });
    const file = stt.requests[0]!.file!;
    expect(file.name).toBe('voice.ogg');
    expect(file.bytes.equals(ogg)).toBe(true);
    const users = (fixture.model.chatBodies()[0]!.messages as { role: string; content: unknown }[]).filter(
      (message) => message.role === 'user',
    );
    expect(JSON.stringify(users.at(-1)!.content)).toContain('[Voice, transcribed] remind me to water the plants');
  });
});
