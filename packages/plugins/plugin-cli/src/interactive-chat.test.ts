import { PassThrough } from 'node:stream';
import type { InboundReport } from '@aalis/api-gateway';
import { translate } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { stripAnsi } from './display-width.js';
import { InteractiveChat } from './interactive-chat.js';
import { plainStyle } from './style.js';
import './cli-texts.js';

function terminal(isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY, setRawMode: () => {} });
  const output = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { input, output, screen: () => stripAnsi(text) };
}

const chats: InteractiveChat[] = [];
afterEach(() => {
  for (const chat of chats.splice(0)) chat.close();
});

type Send = ConstructorParameters<typeof InteractiveChat>[0]['send'];

function start({ now = () => 0, send, piped = false }: { now?: () => number; send?: Send; piped?: boolean } = {}) {
  const io = terminal(!piped);
  const sent: IncomingMessage[] = [];
  const chat = new InteractiveChat({
    input: io.input,
    output: io.output,
    sessionId: 'cli:local',
    user: { userId: 'local', displayName: 'Ada' },
    send:
      send ??
      (async (message) => {
        sent.push(message);
        return { arrival: sent.length, outcome: 'dispatched', phase: 'inbound:dispatch' } satisfies InboundReport;
      }),
    style: plainStyle,
    t: (text) => translate(text, 'en'),
    reasoning: 'collapsed',
    prompt: '> ',
    usageAfterTurn: false,
    latestUsage: () => undefined,
    now,
  });
  chats.push(chat);
  const exited = chat.run();
  return { ...io, chat, sent, exited };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('InteractiveChat', () => {
  it('sends each typed line as a message of the local user on platform cli', async () => {
    const { input, sent } = start();
    input.write('hello there\r');
    await tick();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      sessionId: 'cli:local',
      platform: 'cli',
      content: 'hello there',
      sender: { userId: 'local', displayName: 'Ada' },
      actor: { platform: 'cli', userId: 'local' },
    });
    expect(sent[0]!.messageId).toMatch(/^cli-/);
  });

  it('joins lines ending in a backslash into one message', async () => {
    const { input, sent, screen } = start();
    input.write('what time is it? \\\r');
    await tick();
    expect(sent).toHaveLength(0);
    expect(screen()).toContain('… ');
    input.write('/call current_time\r');
    await tick();
    expect(sent.map((message) => message.content)).toEqual(['what time is it? \n/call current_time']);
  });

  it('stops the running turn on Ctrl-C by sending /stop, and leaves on a second Ctrl-C within two seconds', async () => {
    let clock = 1_000;
    const { input, chat, sent, screen, exited } = start({ now: () => clock });
    chat.turnStarted({ turnId: 't1', sessionId: 'cli:local', inputs: [] });
    input.write('\x03');
    await tick();
    expect(sent.map((message) => message.content)).toEqual(['/stop']);
    expect(screen()).toContain('Stopping this turn (press Ctrl-C again within two seconds to exit)');
    clock += 1_500;
    input.write('\x03');
    await expect(exited).resolves.toBe('ctrl-c');
    expect(screen()).toContain('Finishing and exiting…');
  });

  it('only hints on Ctrl-C when no turn runs, and does not leave when the presses are far apart', async () => {
    let clock = 0;
    const { input, sent, screen, exited } = start({ now: () => clock });
    input.write('\x03');
    await tick();
    clock += 5_000;
    input.write('\x03');
    await tick();
    expect(sent).toEqual([]);
    expect(screen()).toContain('Press Ctrl-C again within two seconds to exit');
    let settled = false;
    void exited.then(() => {
      settled = true;
    });
    await tick();
    expect(settled).toBe(false);
  });

  it('leaves on Ctrl-D (end of input)', async () => {
    const { input, exited } = start();
    input.write('\x04');
    await expect(exited).resolves.toBe('end-of-input');
  });

  it('piped input (not a terminal): leaves when it ends only after what it sent was answered', async () => {
    const answers: Array<() => void> = [];
    const contents: string[] = [];
    const { input, exited } = start({
      piped: true,
      // `send` settles when the message's turn ended: here when the test answers it.
      send: (message) =>
        new Promise((resolve) => {
          contents.push(message.content);
          answers.push(() => resolve({ arrival: contents.length, outcome: 'dispatched', phase: 'inbound:dispatch' }));
        }),
    });
    let exit: string | undefined;
    void exited.then((reason) => {
      exit = reason;
    });
    input.end('hello\nand more\n');
    await tick();
    await tick();
    expect(contents).toEqual(['hello', 'and more']);
    expect(exit).toBeUndefined();
    answers[0]!();
    await tick();
    expect(exit).toBeUndefined();
    answers[1]!();
    await tick();
    await tick();
    expect(exit).toBe('end-of-input');
  });

  it('renders the streamed turn above the prompt', async () => {
    const { chat, screen } = start();
    chat.fragment({ sessionId: 'cli:local', turnId: 't1', delta: 'Hello ' });
    chat.fragment({ sessionId: 'cli:local', turnId: 't1', delta: 'world\n' });
    chat.fragment({ sessionId: 'cli:local', turnId: 't1', done: true });
    await tick();
    expect(screen()).toMatch(/Hello world\n[\s\S]*> $/);
  });

  it('sends a message still continued when the input ends, and never a line of invisible characters', async () => {
    const { input, sent, exited } = start();
    input.write('\u200b\u200d\ufeff\r');
    input.write(' \u2060\u3164\r');
    input.write('remember the milk \\\r');
    await tick();
    expect(sent).toHaveLength(0);
    input.write('\x04');
    await expect(exited).resolves.toBe('end-of-input');
    expect(sent.map((message) => message.content)).toEqual(['remember the milk ']);
  });

  it('leaves when its output fails (the terminal went away)', async () => {
    const { output, exited } = start();
    output.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }));
    await expect(exited).resolves.toBe('closed');
  });

  it('leaves without an error when the terminal was closed (its input ends and raw mode fails with EIO)', async () => {
    const { input, exited } = start();
    // A hung-up terminal: like tty.ReadStream, setRawMode reports its failure as an 'error' event on the input.
    input.setRawMode = () => {
      input.emit('error', Object.assign(new Error('setRawMode EIO'), { code: 'EIO', syscall: 'setRawMode' }));
    };
    input.end();
    await expect(exited).resolves.toBe('closed');
  });
});
