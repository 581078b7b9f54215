// The interactive terminal on the real agent: messages typed while a turn runs join it or queue for the next one,
// as the agent decides, and the screen says which; tool calls get their line; Ctrl-C stops the turn.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stripAnsi } from '@aalis/plugin-cli';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, serverConfig, waitFor } from './spawn-aalis.case.js';
import { type RunningAalis, startAalis } from './start-aalis.js';

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => server.close());

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  server.reset();
});

async function terminalChat() {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-turns-'));
  writeFileSync(join(dir, 'aalis.config.yaml'), serverConfig(server.url));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const aalis: RunningAalis = await startAalis({ cwd: dir, env: {}, mode: 'interactive', input, output });
  cleanups.push(() => aalis.stop());
  const screen = () => stripAnsi(text);
  return {
    aalis,
    screen,
    type: (line: string) => input.write(`${line}\r`),
    key: (sequence: string) => input.write(sequence),
    until: (needle: string) =>
      waitFor(() => screen().includes(needle), { what: () => `"${needle}" on the screen:\n${screen()}` }),
    requests: (count: number) =>
      waitFor(() => server.chatBodies().length >= count, { what: `${count} model request(s)` }),
  };
}

describe('the interactive terminal on the real agent', () => {
  it(
    'shows a message typed during a tool batch joining the turn, and one typed during the final answer queued',
    async () => {
      const chat = await terminalChat();
      // Call 1 asks for a tool, slowly; call 2 (after the tool) answers, slowly; call 3 answers the queued message.
      server.enqueue(
        {
          type: 'stream',
          steps: [
            { toolCall: { index: 0, id: 'call_1', name: 'calculator', arguments: '{"expression":' } },
            { flush: true },
            { delayMs: 2_500 },
            { toolCall: { index: 0, arguments: '"6*7"}' } },
            { finish: 'tool_calls' },
            { done: true },
          ],
        },
        {
          type: 'stream',
          steps: [
            { text: 'The answer' },
            { flush: true },
            { delayMs: 2_500 },
            { text: ' is 42.' },
            { finish: 'stop' },
            { done: true },
          ],
        },
        { type: 'stream', steps: [{ text: 'Noted.' }, { finish: 'stop' }, { done: true }] },
      );
      chat.type('What is 6*7?');
      await chat.requests(1);
      await chat.until('⚙ calculator');
      chat.type('Also add one.');
      await chat.requests(2);
      await chat.until('The answer');
      chat.type('Thanks!');
      await chat.until('Noted.');

      const screen = chat.screen();
      expect(screen).toContain('↳ Joined the running turn: Also add one.');
      expect(screen).toContain('⏳ Queued: Thanks! — opens the next turn when this one ends');
      expect(screen).toMatch(/✓ calculator \{"expression":"6\*7"\} → 42 · \d+ ms/);
      expect(screen).toContain('The answer is 42.');
      // The joined message went to the model after the tool result, in the same turn.
      const second = server.chatBodies()[1] as { messages: Array<{ role: string; content: string }> };
      expect(second.messages.slice(-2).map((message) => message.role)).toEqual(['tool', 'user']);
      expect(second.messages.at(-1)!.content).toContain('Also add one.');
      // The queued one opened the next turn.
      const third = server.chatBodies()[2] as { messages: Array<{ role: string; content: string }> };
      expect(third.messages.at(-1)!.content).toContain('Thanks!');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'stops the running turn on Ctrl-C and shows the token-usage line on /usage',
    async () => {
      const chat = await terminalChat();
      server.enqueue({ type: 'stream', steps: [{ text: 'Hello.' }, { finish: 'stop' }, { done: true }] });
      chat.type('Hi.');
      await chat.until('Hello.');
      server.enqueue({
        type: 'stream',
        steps: [{ text: 'Thinking aloud' }, { flush: true }, { delayMs: 60_000 }, { done: true }],
      });
      chat.type('Talk for a long time.');
      await chat.until('Thinking aloud');
      chat.key('\x03');
      await chat.until('This turn was stopped');
      expect(chat.screen()).toContain('Stopping this turn');
      // A stopped call reports no usage; /usage shows the latest call that completed.
      chat.type('/usage');
      await chat.until('[token-usage:');
      expect(chat.screen()).toMatch(/\[token-usage:OK\] \d+\/128000 \(\d+\.\d%\)/);
    },
    E2E_TIMEOUT_MS,
  );
});
