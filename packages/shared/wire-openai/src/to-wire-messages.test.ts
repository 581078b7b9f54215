import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { fromWireMessages } from './from-wire-messages.js';
import { toWireMessages } from './to-wire-messages.js';

const history: Message[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: '', kind: 'event-marker' },
  {
    role: 'assistant',
    content: '',
    reasoningContent: 'need the time',
    toolCalls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }],
  },
  { role: 'tool', content: '12:00', toolCallId: 'c1', name: 'clock' },
  { role: 'assistant', content: 'It is noon.' },
];

describe('toWireMessages', () => {
  it('maps roles, tool calls, tool results and reasoning, and leaves control messages out', () => {
    expect(toWireMessages({ messages: history })).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'need the time',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }],
      },
      { role: 'tool', content: '12:00', tool_call_id: 'c1' },
      { role: 'assistant', content: 'It is noon.' },
    ]);
  });

  it('can leave reasoning out for servers that refuse it', () => {
    const wire = toWireMessages({ messages: history, includeReasoning: false });
    expect(wire.some((message) => 'reasoning_content' in message)).toBe(false);
  });

  it('sends images as content parts to a vision model, and descriptions otherwise', () => {
    const message: Message = {
      role: 'user',
      content: 'what is this?',
      attachments: [
        { type: 'image', url: 'https://example.com/cat.png', description: 'a cat' },
        { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
        { type: 'file', name: 'notes.txt', description: 'some notes' },
      ],
    };
    const describeAttachment = (attachment: { description?: string }) =>
      attachment.description ? `[${attachment.description}]` : undefined;
    expect(toWireMessages({ messages: [message], vision: true, describeAttachment })).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          { type: 'text', text: '[some notes]' },
        ],
      },
    ]);
    expect(toWireMessages({ messages: [message], vision: false, describeAttachment })).toEqual([
      { role: 'user', content: 'what is this?\n[a cat]\n[some notes]' },
    ]);
    expect(toWireMessages({ messages: [message] })).toEqual([{ role: 'user', content: 'what is this?' }]);
  });
});

describe('fromWireMessages', () => {
  it('reads back what toWireMessages wrote', () => {
    const conversation = history.filter((message) => message.kind === undefined);
    const back = fromWireMessages({ messages: toWireMessages({ messages: conversation }) });
    expect(back).toEqual(conversation.map(({ name: _name, ...message }) => message));
  });

  it('reads content parts into text and image attachments', () => {
    expect(
      fromWireMessages({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
            ],
          },
        ],
      }),
    ).toEqual([{ role: 'user', content: 'look', attachments: [{ type: 'image', url: 'data:image/png;base64,AA' }] }]);
  });
});
