// The plugin through the real agent and two OpenAI-compatible model entries on a local server: a chat model that
// cannot see and a describing model that can. What reaches the chat model for an image, the cache (an image seen
// again costs no model call), describe_image, no model with vision, and an "image" that is not one.

import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import openaiPlugin from '@aalis/plugin-llm-openai';
import { errorReply, type OpenAiTestServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import mediaPlugin from './index.js';

const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let harness: Harness | undefined;
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  await server?.close();
  harness = undefined;
  server = undefined;
});

async function start({ vision = true, describeModel }: { vision?: boolean; describeModel?: string } = {}) {
  server = await startOpenAiTestServer({ models: ['test-model', 'eye'] });
  const extra = vision
    ? [
        [
          openaiPlugin,
          {
            baseUrl: server.url,
            fetchModels: false,
            models: [{ id: 'eye', capabilities: { vision: true } }],
            retry: { maxRetries: 0 },
          },
          { id: 'vision' },
        ] as const,
      ]
    : [];
  harness = await startHarness({
    server,
    extra: [...extra, [mediaPlugin, describeModel ? { describeModel } : {}]] as never,
  });
  return harness;
}

const chatCalls = () => server!.chatBodies().filter((body) => body.model === 'test-model');
const describeCalls = () => server!.chatBodies().filter((body) => body.model === 'eye');

function lastUserText(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const content = messages.filter((message) => message.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('plugin-media', () => {
  it('an image for a model that cannot see goes as a description, and seen again costs no model call', async () => {
    const h = await start();
    server!.enqueueWhen((body) => body.model === 'eye', textReply('A single red pixel on white.'));
    server!.enqueueWhen((body) => body.model === 'test-model', textReply('a red dot'), textReply('same dot'));
    await h.say('what is this?', {
      attachments: [{ type: 'image', mimeType: 'image/png', data: RED_PNG, name: 'dot.png' }],
    });
    expect(describeCalls()).toHaveLength(1);
    // The describing model got the image itself.
    expect(JSON.stringify(describeCalls()[0]!.messages)).toContain(`data:image/png;base64,${RED_PNG}`);
    const sent = lastUserText(chatCalls()[0]!);
    expect(sent).toMatch(
      /\[附件 dot\.png：图片 img_[0-9a-f]{12} 的描述（由 vision\/eye 看图写成，不是原图）：A single red pixel on white\.\]/,
    );
    expect(sent).not.toContain('base64');
    // The same picture again, in another session: from the cache.
    await h.say('and this?', {
      sessionId: 'cli:other',
      attachments: [{ type: 'image', mimeType: 'image/png', data: RED_PNG, name: 'again.png' }],
    });
    expect(describeCalls()).toHaveLength(1);
    expect(lastUserText(chatCalls()[1]!)).toContain('A single red pixel on white.');
  });

  it('describe_image looks again at a history image with a question', async () => {
    const h = await start();
    server!.enqueueWhen(
      (body) => body.model === 'eye',
      textReply('A red pixel.'),
      textReply('The pixel is red (#ff0000).'),
    );
    server!.enqueueWhen((body) => body.model === 'test-model', textReply('noted'));
    await h.say('keep this', {
      attachments: [{ type: 'image', mimeType: 'image/png', data: RED_PNG, name: 'dot.png' }],
    });
    const id = /图片 (img_[0-9a-f]{12})/.exec(lastUserText(chatCalls()[0]!))![1]!;
    server!.enqueueWhen(
      (body) => body.model === 'test-model',
      toolCallReply([
        { id: 'c1', name: 'describe_image', arguments: { imageId: id, question: 'what colour exactly?' } },
      ]),
      textReply('it is #ff0000'),
    );
    await h.say('what colour was it exactly?');
    expect(describeCalls()).toHaveLength(2);
    expect(JSON.stringify(describeCalls()[1]!.messages)).toContain('what colour exactly?');
    const tool = (chatCalls().at(-1)!.messages as Array<{ role: string; content: string }>).find(
      (message) => message.role === 'tool',
    )!;
    expect(tool.content).toContain('The pixel is red (#ff0000).');
  });

  it('with no model that can see, the person is told once per session and the model is told why', async () => {
    const h = await start({ vision: false });
    const outbound = h.booted.capture('outbound:message');
    server!.enqueueWhen((body) => body.model === 'test-model', textReply('I cannot see it'), textReply('still cannot'));
    const image = { type: 'image' as const, mimeType: 'image/png', data: RED_PNG, name: 'dot.png' };
    await h.say('look', { attachments: [image] });
    await h.say('look again', { attachments: [{ ...image, name: 'dot2.png' }] });
    expect(lastUserText(chatCalls()[0]!)).toMatch(
      /\[附件 dot\.png：图片 img_[0-9a-f]{12} 没有交给模型：配置的模型都不能看图/,
    );
    const notes = outbound.filter((message) => message.kind === 'system');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.content).toContain('这里配置的模型都不能看图，你发的图片她看不到。');
  });

  it('an "image" that is not one: the person is told, the rest of the message goes through', async () => {
    const h = await start();
    const outbound = h.booted.capture('outbound:message');
    server!.enqueueWhen((body) => body.model === 'test-model', textReply('ok'));
    await h.say('my question stays', {
      attachments: [
        {
          type: 'image',
          mimeType: 'image/png',
          data: Buffer.from('<html>expired</html>').toString('base64'),
          name: 'fake.png',
        },
      ],
    });
    expect(describeCalls()).toHaveLength(0);
    const sent = lastUserText(chatCalls()[0]!);
    expect(sent).toContain('my question stays');
    expect(sent).toContain('没能描述：它不是图片（内容不是 PNG、JPEG、GIF 或 WebP）。');
    expect(outbound.find((message) => message.kind === 'system')?.content).toBe(
      '图片 fake.png 没能交给她：它不是图片（内容不是 PNG、JPEG、GIF 或 WebP）。 消息的其余部分照常发出。',
    );
  });

  it('a describing model that fails: the person is told, the turn still runs', async () => {
    const h = await start();
    const outbound = h.booted.capture('outbound:message');
    server!.enqueueWhen((body) => body.model === 'eye', errorReply(500, 'overloaded'));
    server!.enqueueWhen((body) => body.model === 'test-model', textReply('answered anyway'));
    await h.say('and this one', {
      attachments: [{ type: 'image', mimeType: 'image/png', data: RED_PNG, name: 'dot.png' }],
    });
    expect(lastUserText(chatCalls()[0]!)).toContain('没能描述：描述图片的模型 vision/eye 出错了');
    expect(outbound.find((message) => message.kind === 'system')?.content).toContain('图片 dot.png 没能交给她');
    expect(outbound.some((message) => message.content === 'answered anyway')).toBe(true);
  });
});
