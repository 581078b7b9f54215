import { translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { toToolResultFromMcp } from './mcp-result.js';

const t = (text: Parameters<typeof translate>[0]) => translate(text, 'en');

describe('toToolResultFromMcp', () => {
  it('attaches PNG, JPEG, GIF and WebP images for a model that sees them, and only notes other types', () => {
    const result = toToolResultFromMcp(
      {
        content: [
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' },
        ],
      },
      { acceptsImages: true, t, errorCode: 'AALIS_MCP_TOOL_FAILED' },
    );
    expect(result.attachments).toEqual([{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]);
    expect(result.content).toBe(
      '[image image/png, attached]\n[image image/svg+xml: not a type models take (PNG, JPEG, GIF, WebP); not attached]',
    );
  });
});
