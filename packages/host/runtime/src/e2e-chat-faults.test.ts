// End to end: the real `aalis chat` process under faults and bad input — hostile terminal sequences in a reply,
// standard output closed under it, a continued line at the very end of the input, invisible-only lines, SIGHUP, a
// model server that comes up after the host.
import { type AddressInfo, connect, createServer } from 'node:net';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, serverConfig, spawnAalis, waitFor } from './spawn-aalis.case.js';
import { expectDrainOnSignal, useSpawnFixture } from './spawn-fixture.case.js';

type ChatBody = { messages: Array<{ role: string; content: string | null }> };

const fixture = useSpawnFixture();
const { workspace } = fixture;
const bodies = () => fixture.bodies<ChatBody>();
const chatRequests = () => fixture.server.requests.filter((request) => request.path === '/v1/chat/completions');
const transcript = (body: ChatBody) => body.messages.map((message) => message.content ?? '').join('\n');
const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

describe('aalis chat under faults', () => {
  it(
    'prints a reply with its escape sequences neutralised (no OSC title/clipboard, clear, alternate screen)',
    async () => {
      const cwd = workspace(serverConfig(fixture.server.url));
      fixture.server.enqueue(
        textReply('Hi\x1b]0;PWNED\x07 \x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[3J\x1b[?1049h\x1bc\x9b2J there.', {
          chunkSize: 3,
        }),
      );
      const run = await runAalis({ cwd, args: ['chat'], input: 'Say hi\n', env: { FORCE_COLOR: '1' } });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('Hi␛]0;PWNED␇ ␛]52;c;ZXZpbA==␇␛[2J␛[3J␛[?1049h␛c\ufffd2J there.\n');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the output.
      expect(run.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'closed standard output (`aalis chat | head -1`): no stack trace, the running turn keeps its records, exit 0',
    async () => {
      const cwd = workspace(serverConfig(fixture.server.url));
      fixture.server.enqueue(
        textReply('one'),
        // The second reply arrives after its reader has gone: writing it fails with EPIPE.
        {
          type: 'stream',
          steps: [
            { role: 'assistant' },
            { flush: true },
            { delayMs: 3_000 },
            { text: 'two' },
            { finish: 'stop' },
            { done: true },
          ],
        },
        textReply('three'),
      );
      const run = spawnAalis({ cwd, args: ['chat'] });
      run.child.stdin!.end('first\nsecond\nthird\n');
      await waitFor(() => run.stdout().includes('one\n'), { what: 'the first reply' });
      await waitFor(() => chatRequests().length >= 2, { what: 'the second model request' });
      run.child.stdout!.destroy(); // like `head -1` exiting after its line
      expect(await run.exited).toBe(0);
      expect(run.stderr()).not.toMatch(STACK_TRACE);
      expect(run.stderr()).not.toContain('EPIPE');
      expect(chatRequests()).toHaveLength(2); // the third line was not sent after the output closed

      fixture.server.enqueue(textReply('Still here.'));
      const again = await runAalis({ cwd, args: ['chat'], input: 'Are you there?\n' });
      expect(again.code).toBe(0);
      const history = transcript(bodies()[2]!);
      expect(history).toContain('second');
      expect(history).toContain('two'); // the reply of the turn that was running was stored
      expect(history).not.toContain('third');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'sends a continued line at the very end of the input, and treats an invisible-only line as empty',
    async () => {
      const cwd = workspace(serverConfig(fixture.server.url));
      fixture.server.enqueue(textReply('Got it.'));
      const run = await runAalis({
        cwd,
        args: ['chat'],
        input: '\u200b\u200d\ufeff\n\u2060 \u3164\nplease remember \\\nthe milk \\',
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('Got it.\n');
      expect(bodies()).toHaveLength(1);
      expect(bodies()[0]!.messages.at(-1)!.content).toContain('please remember \nthe milk');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'drains on SIGHUP like SIGTERM: the running turn stops cleanly, exit 0, the history intact',
    () => expectDrainOnSignal(fixture, 'SIGHUP'),
    E2E_TIMEOUT_MS,
  );

  it(
    'a model server that is down at start (llm.model unset) is asked for its models again later',
    async () => {
      const port = await freePort();
      const cwd = workspace(
        `locale: en\nllm:\n  baseUrl: http://127.0.0.1:${port}/v1\nplugins:\n  llm-openai:\n    retry: { maxRetries: 0 }\n`,
      );
      const run = spawnAalis({ cwd, args: ['chat'] });
      await waitFor(() => run.stderr().includes('offers no model'), { what: () => `the banner:\n${run.stderr()}` });
      // The server comes up (on the port the configuration names) after the host started.
      const scripted = new URL(fixture.server.url);
      const front = createServer((socket) => {
        const target = connect(Number(scripted.port), scripted.hostname);
        socket.pipe(target).pipe(socket);
        target.on('error', () => socket.destroy());
        socket.on('error', () => target.destroy());
      });
      await new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
      try {
        // Asked again after 1, 2, 4, 8 … s (at most 30 s apart).
        await waitFor(() => fixture.server.requests.some((request) => request.path === '/v1/models'), {
          timeoutMs: 40_000,
          what: 'the model list asked for again',
        });
        fixture.server.enqueue(textReply('Found you.'));
        run.child.stdin!.end('hello\n');
        expect(await run.exited).toBe(0);
        expect(run.stdout()).toBe('Found you.\n');
        expect((bodies()[0] as unknown as { model: string }).model).toBe('test-model');
      } finally {
        await new Promise((resolve) => front.close(resolve));
      }
    },
    E2E_TIMEOUT_MS,
  );
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
