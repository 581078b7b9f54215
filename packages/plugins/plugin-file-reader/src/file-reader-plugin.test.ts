// The plugin through the real agent and the OpenAI provider over HTTP: what reaches the model for a GBK text and a
// PDF, a long document read through read_uploaded_file, and an encrypted PDF that the person is told about while
// the rest of the message goes through.
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import fileReaderPlugin, { READ_UPLOADED_FILE_TOOL } from './index.js';
import { encryptedPdf, gbkText, textPdf } from './test-files.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function userText(message: Record<string, unknown> | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
}

describe('plugin-file-reader', () => {
  it('a GBK text and a PDF reach the model as their text, with the file names', async () => {
    harness = await startHarness({ extra: [fileReaderPlugin] });
    harness.server.enqueue(textReply('got them'));
    await harness.say('看看这两个文件', {
      attachments: [
        { type: 'file', name: '笔记.txt', data: base64(gbkText()) },
        { type: 'file', name: 'report.pdf', data: base64(await textPdf(2)) },
      ],
    });
    const sent = userText(harness.requests()[0]!.messages.at(-1));
    expect(sent).toContain('看看这两个文件');
    expect(sent).toContain('[附件 笔记.txt：');
    expect(sent).toContain('这是一个用 GBK 编码保存的中文文本文件。');
    expect(sent).toContain('[附件 report.pdf：');
    expect(sent).toContain('Page 2: the quarterly figures.');
    // The history keeps the description and a reference, not the bytes.
    const stored = (await harness.history()).find((message) => message.role === 'user')!;
    expect(stored.attachments?.[1]).toMatchObject({ type: 'file', name: 'report.pdf', mimeType: 'application/pdf' });
    expect(stored.attachments?.[1]?.data).toBeUndefined();
  });

  it('a long PDF goes as an outline, and the model reads a part through read_uploaded_file', async () => {
    harness = await startHarness({ extra: [[fileReaderPlugin, { inlineChars: 1_000, partChars: 2_000 }]] });
    await harness.say('summarise', {
      attachments: [{ type: 'file', name: 'long.pdf', data: base64(await textPdf(12)) }],
    });
    const outline = userText(harness.requests()[0]!.messages.at(-1));
    const id = /文件 id (f[0-9a-f]{16})/.exec(outline)?.[1];
    expect(id).toBeDefined();
    expect(outline).toContain('目录：');
    expect(outline).not.toContain('Row 20 of page 12');
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: READ_UPLOADED_FILE_TOOL, arguments: { fileId: id, part: 2 } }]),
      textReply('read it'),
    );
    await harness.say('read part 2');
    const tool = harness.requests()[2]!.messages.find((message) => message.role === 'tool')!;
    expect(String(tool.content)).toContain(`文件 long.pdf（id ${id}）第 2/`);
    expect(String(tool.content)).toMatch(/Row \d+ of page \d+/);
  });

  it('an encrypted PDF: the person is told, the model sees why, and the rest of the message goes through', async () => {
    harness = await startHarness({ extra: [fileReaderPlugin] });
    const outbound = harness.booted.capture('outbound:message');
    harness.server.enqueue(textReply('ok'));
    await harness.say('here is the contract, and my question: when does it end?', {
      attachments: [{ type: 'file', name: 'contract.pdf', data: base64(encryptedPdf()) }],
    });
    const sent = userText(harness.requests()[0]!.messages.at(-1));
    expect(sent).toContain('when does it end?');
    expect(sent).toContain('它加了密码（PDF）');
    const notice = outbound.find((message) => message.kind === 'system');
    expect(notice?.content).toBe(
      '文件 contract.pdf 没能读出来：它加了密码（PDF）。请发一份没有密码的。 消息的其余部分照常发出。',
    );
  });
});
