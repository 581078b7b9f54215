// Files and voice through the page, in Debian Chromium against a real `aalis serve` with the media plugin's
// speech-to-text pointed at a local /audio/transcriptions server: a Chinese GBK text file, a PDF and a DOCX picked
// in the composer reach the model as their text; the microphone (Chromium's fake capture device) records a voice
// message that is sent as its transcript, the recording kept as an attachment; her reply's Play button (播放) plays
// the reply spoken by a local /audio/speech server (message.speech), and a second play costs the host nothing.
import {
  type SpeechTestServer,
  startSpeechTestServer,
  startTranscriptionTestServer,
  type TranscriptionTestServer,
  textReply,
} from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, GBK_TEXT, gbkText, textPdf } from '../../../../plugins/plugin-file-reader/src/test-files.case.js';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 20_000 };
let served: ServedWebui;
let speech: TranscriptionTestServer;
let tts: SpeechTestServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  speech = await startTranscriptionTestServer({
    fallback: (request) => ({ text: `明天早上八点提醒我开会（${request.file?.bytes.length ?? 0} 字节）` }),
  });
  tts = await startSpeechTestServer({ answerFormat: 'mp3' });
  served = await serveWebui({
    extraConfig: `  media:\n    transcription: { baseUrl: ${speech.url}, model: whisper-test }\n    speech: { baseUrl: ${tts.url}, voice: nova }\n`,
    chromiumArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['microphone'], { origin: served.origin });
  page = await context.newPage();
  await page.goto(served.link);
  await page.getByTestId('new-chat').waitFor();
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
  await speech?.close();
  await tts?.close();
}, TIMEOUT);

/** What the model was sent as the last user message of its latest call. */
const lastUserText = () => {
  const bodies = served.model.chatBodies();
  const messages = (bodies.at(-1)?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
};

describe('files and voice from the WebUI', () => {
  it(
    'a GBK text file, a PDF and a DOCX picked in the composer reach the model as their text',
    async () => {
      served.model.enqueue(textReply('Read all three.'));
      await page.getByTestId('composer-file').setInputFiles([
        { name: '会议纪要.txt', mimeType: 'text/plain', buffer: gbkText() },
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await textPdf(2)) },
        {
          name: 'plan.docx',
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          buffer: await docx(['The launch moves to Thursday.', 'Budget stays at 40k.']),
        },
      ]);
      await page.getByTestId('composer-text').fill('please read these');
      await page.getByTestId('send').click();
      await expect.poll(() => page.getByTestId('turn').last().textContent(), SLOW).toContain('Read all three.');
      const sent = lastUserText();
      expect(sent).toContain('please read these');
      expect(sent).toContain(GBK_TEXT.split('\n')[0]);
      expect(sent).toContain('Page 1: the quarterly figures.');
      expect(sent).toContain('The launch moves to Thursday.');
    },
    TIMEOUT,
  );

  it(
    'the microphone records a voice message that is sent as its transcript',
    async () => {
      await page.getByTestId('new-session').click();
      await page.getByTestId('new-chat').waitFor();
      const microphone = page.getByRole('button', { name: 'Voice input' });
      await microphone.click();
      await page
        .getByRole('status')
        .filter({ hasText: /Recording \d+ s/ })
        .waitFor();
      await page.waitForTimeout(1_500);
      await page.getByRole('button', { name: 'Stop recording' }).click();
      // The recording is attached like a picked file; the send carries it.
      await page.getByText(/^voice-\d{6}\.webm$/).waitFor();
      served.model.enqueue(textReply('好的，明天早上八点提醒你。'));
      await page.getByTestId('send').click();
      await expect.poll(() => page.getByTestId('turn').last().textContent(), SLOW).toContain('明天早上八点提醒你');
      expect(speech.requests).toHaveLength(1);
      const file = speech.requests[0]!.file!;
      expect(file.name).toMatch(/\.webm$/);
      expect(file.bytes.length).toBeGreaterThan(1_000);
      expect(speech.requests[0]!.model).toBe('whisper-test');
      expect(lastUserText()).toContain('明天早上八点提醒我开会');
    },
    TIMEOUT,
  );

  it(
    'her reply has a Play button that plays the reply spoken by the host',
    async () => {
      const reply = page.getByTestId('turn').last().getByTestId('reply').last();
      const play = reply.getByRole('button', { name: 'Play' });
      await play.waitFor(SLOW);
      expect(await play.getAttribute('aria-pressed')).toBe('false');
      await play.click();
      // Playing (the Ogg/Opus decoded by Chromium), then back to idle when the voice has ended; a failure says why.
      const state = async () =>
        `${await play.getAttribute('data-state')} ${await reply.locator('.play-reply [role="status"]').textContent()}`;
      await expect.poll(state, SLOW).toMatch(/^playing /);
      expect(await play.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => play.getAttribute('data-state'), SLOW).toBe('idle');
      expect(tts.requests).toHaveLength(1);
      expect(tts.requests[0]!.input).toBe('好的，明天早上八点提醒你。');
      expect(tts.requests[0]!.voice).toBe('nova');
      // Played again from the page's copy: no second request.
      await play.click();
      await expect.poll(() => play.getAttribute('data-state'), SLOW).toBe('playing');
      await play.click();
      expect(await play.getAttribute('data-state')).toBe('idle');
      expect(tts.requests).toHaveLength(1);
    },
    TIMEOUT,
  );
});
