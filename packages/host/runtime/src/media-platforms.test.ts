// Files and images through the product (startAalis, the default plugin set with plugin-media and
// plugin-file-reader) from the platforms' own protocol servers: a PDF document and a photo from Telegram, a file
// segment from OneBot. What reaches the chat model (which cannot see) is checked on the scripted model server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gbkText, textPdf } from '@aalis/plugin-file-reader/testing';
import {
  type OpenAiTestServer,
  onebotPrivateMessage,
  startBotApiServer,
  startOneBotImplementation,
  startOpenAiTestServer,
  telegramMessage,
  textReply,
} from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './spawn-aalis.case.js';
import { startAalis } from './start-aalis.js';

const TOKEN = '123456:telegram-media-token';
const alice = { id: 11, first_name: 'Alice' };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model', 'eye'] });
});
afterAll(() => model.close());
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  model.reset();
});

/** The chat model cannot see; `eye` on the same server can, and describes images. */
async function start(platformSection: string) {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-media-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: zh-CN
logLevel: debug
consoleLogLevel: error
servicePreferences: { llm: openai/test-model }
plugins:
  llm-openai:
    baseUrl: ${model.url}
    fetchModels: false
    retry: { maxRetries: 0 }
    models: [{ id: test-model }, { id: eye, capabilities: { vision: true } }]
  memory-summary: false
${platformSection}`,
  );
  const output = new PassThrough();
  output.resume();
  const aalis = await startAalis({ cwd: dir, env: {}, mode: 'none', output, errorOutput: output });
  cleanups.push(() => aalis.stop());
  return aalis;
}

const chatCalls = () => model.chatBodies().filter((body) => body.model === 'test-model');
const describeCalls = () => model.chatBodies().filter((body) => body.model === 'eye');
const lastUser = (body: Record<string, unknown>) =>
  JSON.stringify((body.messages as Array<{ role: string }>).filter((message) => message.role === 'user').at(-1));

describe('media through the platforms', () => {
  it('Telegram: a PDF document reaches the model as its text, a photo as a description', async () => {
    const api = await startBotApiServer({
      token: TOKEN,
      me: { id: 4242, username: 'aalis_media_bot', first_name: 'Aalis' },
    });
    cleanups.push(() => api.close());
    await start(
      `  platform-telegram:\n    token: "${TOKEN}"\n    apiRoot: ${api.url}\n    pollTimeoutSeconds: 1\n    retryDelayMs: 50\n`,
    );
    api.addFile('doc-1', await textPdf(2));
    api.addFile('photo-1', PNG);
    model.enqueueWhen((body) => body.model === 'eye', textReply('一个红色的像素点。'));
    model.enqueueWhen((body) => body.model === 'test-model', textReply('读完了。'), textReply('看到了。'));
    api.push({
      message: {
        ...telegramMessage({ chatId: alice.id, from: alice, text: '总结一下' }),
        document: { file_id: 'doc-1', file_name: 'report.pdf', mime_type: 'application/pdf' },
      },
    });
    await waitFor(() => api.sent.length === 1, { what: 'the reply to the document' });
    const document = lastUser(chatCalls()[0]!);
    expect(document).toContain('[附件 report.pdf：文件 id f');
    expect(document).toContain('Page 2: the quarterly figures.');
    api.push({ message: telegramMessage({ chatId: alice.id, from: alice, text: '这是什么', photo: 'photo-1' }) });
    await waitFor(() => api.sent.length === 2, { what: 'the reply to the photo' });
    expect(describeCalls()).toHaveLength(1);
    expect(lastUser(chatCalls()[1]!)).toContain('的描述（由 openai/eye 看图写成，不是原图）：一个红色的像素点。');
    expect(lastUser(chatCalls()[1]!)).not.toContain('base64');
  });

  it('OneBot: a file segment (a GBK text) reaches the model as its text', async () => {
    const files: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(gbkText()),
    );
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => files.close(() => resolve())));
    const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/notes.txt`;
    const implementation = await startOneBotImplementation({ selfId: 10_000, accessToken: 'media-token' });
    cleanups.push(() => implementation.close());
    await start(
      `  platform-onebot:\n    url: ${implementation.url}\n    accessToken: media-token\n    reconnect: { initialMs: 50, maxMs: 200 }\n`,
    );
    await implementation.connected();
    model.enqueueWhen((body) => body.model === 'test-model', textReply('收到。'));
    implementation.push(
      onebotPrivateMessage({
        userId: 77,
        message: [
          { type: 'text', data: { text: '看看这个文件' } },
          { type: 'file', data: { file: 'notes.txt', name: '笔记.txt', url: fileUrl } },
        ],
      }),
    );
    await waitFor(() => chatCalls().length === 1 && model.pending() === 0, { what: 'the model call' });
    const sent = lastUser(chatCalls()[0]!);
    expect(sent).toContain('看看这个文件');
    expect(sent).toContain('[附件 笔记.txt：');
    expect(sent).toContain('这是一个用 GBK 编码保存的中文文本文件。');
  });
});
