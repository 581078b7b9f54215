// An MCP CallToolResult as the tool result the model reads: text as text, images as attachments when the model
// can see them (a note otherwise), embedded resources as their text, links and binary payloads as short notes,
// structured content as JSON when nothing else was said; `isError` results go back as errors.
import type { ToolResult } from '@aalis/api-tools';
import type { TextRef } from '@aalis/core';
import { type Attachment, isModelImageType } from '@aalis/schema-message';
import './mcp-texts.js';

interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  /** Older servers answer `{ toolResult }`. */
  toolResult?: unknown;
}

export function toToolResultFromMcp(
  result: McpCallResult,
  { acceptsImages, t, errorCode }: { acceptsImages: boolean; t: (text: TextRef) => string; errorCode: string },
): ToolResult {
  const parts: string[] = [];
  const attachments: Attachment[] = [];
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text ?? '');
        break;
      case 'image': {
        const mimeType = block.mimeType ?? 'image/png';
        if (!isModelImageType(mimeType)) {
          // An SVG or the like sent to the model as an image makes its API refuse the whole request.
          parts.push(t({ key: 'mcp.result.imageUnsupported', params: { mimeType } }));
        } else if (acceptsImages && block.data) {
          attachments.push({ type: 'image', data: block.data, mimeType });
          parts.push(t({ key: 'mcp.result.image', params: { mimeType } }));
        } else {
          parts.push(t({ key: 'mcp.result.imageHidden', params: { mimeType } }));
        }
        break;
      }
      case 'audio':
        parts.push(t({ key: 'mcp.result.audio', params: { mimeType: block.mimeType ?? 'audio' } }));
        break;
      case 'resource': {
        const resource = block.resource ?? {};
        if (typeof resource.text === 'string') parts.push(resource.text);
        else {
          parts.push(
            t({
              key: 'mcp.result.resourceBlob',
              params: { uri: resource.uri ?? '?', mimeType: resource.mimeType ?? '?' },
            }),
          );
        }
        break;
      }
      case 'resource_link':
        parts.push(
          t({
            key: 'mcp.result.resourceLink',
            params: { uri: block.uri ?? '?', name: block.name ? ` ${block.name}` : '' },
          }),
        );
        break;
      default:
        parts.push(`[${block.type}]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  }
  const content = parts.join('\n') || t({ key: 'mcp.result.empty' });
  return {
    content,
    ...(result.isError ? { isError: true, code: errorCode } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}
