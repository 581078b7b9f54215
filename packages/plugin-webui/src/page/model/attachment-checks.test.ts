import { describe, expect, it } from 'vitest';
import { checkImages, formatBytes } from './attachment-checks.js';

const limits = { maxAttachments: 2, maxAttachmentBytes: 1000 };

describe('checkImages', () => {
  it('accepts supported images within the limits and names the problem of each other one', () => {
    const files = [
      { name: 'a.png', type: 'image/png', size: 10 },
      { name: 'notes.txt', type: 'text/plain', size: 10 },
      { name: 'big.jpg', type: 'image/jpeg', size: 1001 },
      { name: 'b.webp', type: 'image/webp', size: 999 },
      { name: 'c.gif', type: 'image/gif', size: 1 },
      { name: 'd.gif', type: 'image/gif', size: 1 },
    ];
    const { accepted, problems } = checkImages(files, 0, limits);
    expect(accepted.map((file) => file.name)).toEqual(['a.png', 'b.webp']);
    expect(problems).toEqual([
      { kind: 'type', name: 'notes.txt' },
      { kind: 'size', name: 'big.jpg', size: 1001, limit: 1000 },
      { kind: 'count', limit: 2 },
    ]);
    expect(checkImages([files[0]!], 2, limits).accepted).toEqual([]);
  });

  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MiB');
  });
});
