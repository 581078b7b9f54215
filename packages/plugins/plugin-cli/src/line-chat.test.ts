import { EventEmitter } from 'node:events';
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
      output: {
        write: (text: string, done?: () => void) => {
          lines.push(text);
          done?.();
        },
      },
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

  it('sends a continued line at the end of input instead of dropping it, and skips invisible-only lines', async () => {
    const input = new PassThrough();
    const sent: string[] = [];
    const chat = new LineChat({
      input,
      output: { write: () => {} },
      sessionId: 's',
      user: { userId: 'local', displayName: 'Ada' },
      async send(message: IncomingMessage) {
        sent.push(message.content);
        return { arrival: sent.length, outcome: 'dispatched', phase: 'inbound:dispatch' };
      },
      onUndelivered: () => {},
    });
    const done = chat.run();
    input.end('\u200b\u200d\n\ufeff \u2060\nfirst\nlast part \\\nstill going \\');
    await expect(done).resolves.toBe('end-of-input');
    expect(sent).toEqual(['first', 'last part \nstill going ']);
  });

  it('stops when its output closes (EPIPE): the running send settles, no later line is sent, nothing written', async () => {
    const input = new PassThrough();
    const output = new EventEmitter() as EventEmitter & { write(text: string): boolean };
    const written: string[] = [];
    output.write = (text: string, done?: () => void) => {
      written.push(text);
      done?.();
      return true;
    };
    const sent: string[] = [];
    let chat!: LineChat;
    chat = new LineChat({
      input,
      output,
      sessionId: 's',
      user: { userId: 'local', displayName: 'Ada' },
      async send(message: IncomingMessage) {
        sent.push(message.content);
        chat.message({ sessionId: 's', kind: 'reply', content: `re: ${message.content}` });
        if (message.content === 'second') {
          output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
          await new Promise((resolve) => setTimeout(resolve, 5));
          chat.message({ sessionId: 's', kind: 'reply', content: 'after the pipe closed' });
        }
        return { arrival: sent.length, outcome: 'dispatched', phase: 'inbound:dispatch' };
      },
      onUndelivered: () => {},
    });
    const done = chat.run();
    input.write('first\nsecond\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.end('third\n');
    await expect(done).resolves.toBe('closed');
    expect(sent).toEqual(['first', 'second']);
    expect(written).toEqual(['re: first\n', 're: second\n']);
  });

  it('prints replies with control sequences neutralised', async () => {
    const lines: string[] = [];
    const chat = new LineChat({
      input: new PassThrough(),
      output: {
        write: (text: string, done?: () => void) => {
          lines.push(text);
          done?.();
        },
      },
      sessionId: 's',
      user: { userId: 'local', displayName: 'Ada' },
      send: async () => undefined,
      onUndelivered: () => {},
    });
    chat.message({ sessionId: 's', kind: 'reply', content: 'hi\x1b]0;pwned\x07\x1b[2J\x1b[?1049h' });
    expect(lines).toEqual(['hi␛]0;pwned␇␛[2J␛[?1049h\n']);
  });
});
