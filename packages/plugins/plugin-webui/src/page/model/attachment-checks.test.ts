import type { ModelView } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { attachmentKind, attachmentNotes, checkFiles, formatBytes } from './attachment-checks.js';

const limits = { maxAttachments: 3, maxAttachmentBytes: 1000 };
const model = (id: string, name: string, vision: boolean): ModelView => ({
  id,
  name,
  contextWindow: 1000,
  maxOutputTokens: 100,
  vision,
  tools: true,
  offline: false,
});

describe('checkFiles', () => {
  it('keeps any file within the limits and names the problem of each other one', () => {
    const files = [
      { name: 'a.png', type: 'image/png', size: 10 },
      { name: 'notes.txt', type: 'text/plain', size: 10 },
      { name: 'big.jpg', type: 'image/jpeg', size: 1001 },
      { name: 'b.webp', type: 'image/webp', size: 999 },
      { name: 'c.gif', type: 'image/gif', size: 1 },
    ];
    const { accepted, problems } = checkFiles(files, 0, limits);
    expect(accepted.map((file) => file.name)).toEqual(['a.png', 'notes.txt', 'b.webp']);
    expect(problems).toEqual([
      { kind: 'size', name: 'big.jpg', size: 1001, limit: 1000 },
      { kind: 'count', limit: 3 },
    ]);
    expect(checkFiles([files[0]!], 3, limits).accepted).toEqual([]);
  });

  it('sends model image types as images, recordings as audio, everything else as files', () => {
    expect(attachmentKind({ type: 'image/webp' })).toBe('image');
    expect(attachmentKind({ type: 'image/svg+xml' })).toBe('file');
    expect(attachmentKind({ type: 'audio/ogg' })).toBe('audio');
    expect(attachmentKind({ type: 'application/pdf' })).toBe('file');
  });

  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MiB');
  });
});

describe('attachmentNotes', () => {
  const blind = model('openai/text', 'Text Model', false);
  const seeing = model('openai/eyes', 'Vision Model', true);
  const image = { name: 'red.png', type: 'image/png' };

  it('says nothing for images a seeing model gets as they are', () => {
    expect(attachmentNotes([image], [blind, seeing], 'openai/eyes')).toEqual([]);
  });

  it('says an image for a model that cannot see is described by one that can, or not sent when none can', () => {
    expect(attachmentNotes([image, image], [blind, seeing], 'openai/text')).toEqual([
      { kind: 'described', model: 'Text Model', describer: 'Vision Model', count: 2 },
    ]);
    expect(attachmentNotes([image], [blind], 'openai/text')).toEqual([
      { kind: 'notSent', model: 'Text Model', count: 1 },
    ]);
  });

  it('says the file reader reads other files', () => {
    expect(attachmentNotes([{ name: 'plan.pdf', type: 'application/pdf' }], [blind], 'openai/text')).toEqual([
      { kind: 'read', names: ['plan.pdf'] },
    ]);
  });
});
