// The attachment checks: images of the four model types, files and voice recordings of any well-formed type; the
// size from the base64 length; every refusal coded with the attachment's index.
import { describe, expect, it } from 'vitest';
import { checkAttachments } from './message-checks.js';

const config = { maxAttachments: 3, maxAttachmentBytes: 1_000 };
const text = Buffer.from('第一行\nsecond line').toString('base64');

function refusal(value: unknown): { code?: string; details?: Record<string, unknown>; message?: string } {
  try {
    checkAttachments(config, value, 'zh-CN');
    return {};
  } catch (error) {
    return error as { code: string; details: Record<string, unknown>; message: string };
  }
}

describe('checkAttachments', () => {
  it('takes files and voice recordings of any type, keeping their name and declared type', () => {
    expect(
      checkAttachments(config, [
        { type: 'file', mimeType: 'text/plain', data: text, name: 'notes.txt' },
        { type: 'audio', data: `data:audio/ogg;base64,${text}`, name: 'voice.ogg' },
        { type: 'file', data: text },
      ]),
    ).toEqual([
      { type: 'file', mimeType: 'text/plain', data: text, name: 'notes.txt' },
      { type: 'audio', mimeType: 'audio/ogg', data: text, name: 'voice.ogg' },
      { type: 'file', data: text },
    ]);
  });

  it('refuses an unknown kind, a malformed type, bad base64 and an oversized file, naming the index', () => {
    expect(refusal([{ type: 'video', data: text }])).toMatchObject({
      code: 'AALIS_WEBUI_ATTACHMENT_INVALID',
      details: { index: 0 },
    });
    expect(refusal([{ type: 'video', data: text }]).message).toContain('type 应为 "image"、"file" 或 "audio"');
    expect(refusal([{ type: 'file', mimeType: 'not a type', data: text }]).message).toContain('类型/子类型');
    expect(refusal([{ type: 'file', data: '%%%' }])).toMatchObject({ code: 'AALIS_WEBUI_ATTACHMENT_INVALID' });
    expect(refusal([{ type: 'file', data: 'A'.repeat(2_000) }])).toMatchObject({
      code: 'AALIS_WEBUI_ATTACHMENT_TOO_LARGE',
    });
    // Images keep their four types.
    expect(refusal([{ type: 'image', mimeType: 'application/pdf', data: text }])).toMatchObject({
      code: 'AALIS_WEBUI_ATTACHMENT_INVALID',
    });
  });
});
