import { PassThrough } from 'node:stream';
import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { LineChat } from './line-chat.js';

describe('LineChat', () => {
  it('sends one message per line, one after another, and ends with the input', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const order: string[] = [];
    let chat!: LineChat;
    const undelivered: string[] = [];
    chat = new LineChat({
      input,
      output: { write: (text: string) => lines.push(text) },
      sessionId: 's',
      user: { userId: 'local', displayName: 'Ada' },
      async send(message: IncomingMessage) {
        order.push(`start ${message.content}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        chat.message({ sessionId: 's', kind: 'reply', content: `re: ${message.content}` });
        order.push(`end ${message.content}`);
        return message.content === 'lost'
          ? { arrival: 3, outcome: 'no-agent', phase: 'inbound:dispatch' }
          : { arrival: 1, outcome: 'dispatched', phase: 'inbound:dispatch' };
      },
      onUndelivered: (text) => undelivered.push(text),
    });
    const done = chat.run();
    input.end('first\n\nsecond \\\ncontinued\nlost\n');
    await expect(done).resolves.toBe('end-of-input');
    expect(order).toEqual([
      'start first',
      'end first',
      'start second \ncontinued',
      'end second \ncontinued',
      'start lost',
      'end lost',
    ]);
    expect(lines).toEqual(['re: first\n', 're: second \ncontinued\n', 're: lost\n']);
    expect(undelivered).toEqual(['lost']);
  });

  it('stops reading when closed from outside', async () => {
    const input = new PassThrough();
    const chat = new LineChat({
      input,
      output: { write: () => {} },
      sessionId: 's',
      user: { userId: 'local', displayName: 'Ada' },
      send: async () => ({ arrival: 1, outcome: 'dispatched', phase: 'inbound:dispatch' }),
      onUndelivered: () => {},
    });
    const done = chat.run();
    chat.close();
    await expect(done).resolves.toBe('closed');
  });
});
