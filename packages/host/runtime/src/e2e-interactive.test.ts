// End to end in a real pseudo-terminal: `aalis start` inside tmux against the scripted test server — a message,
// /stop in the middle of a turn, Ctrl-C to stop a turn, Ctrl-C twice to leave, and a clean exit.
import { spawnSync } from 'node:child_process';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AALIS_BIN,
  childEnv,
  E2E_TIMEOUT_MS,
  serverConfig,
  temporaryWorkspace,
  unfinishedAnswer,
  waitFor,
} from './spawn-aalis.case.js';

const tmuxFound = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!tmuxFound) {
  console.warn(
    'SKIPPED: tmux was not found, so the interactive terminal test of `aalis start` cannot run. Install tmux (apt-get install tmux); .ci/run installs it so CI never skips.',
  );
}

const socket = `aalis-test-${process.pid}`;
function tmux(...args: string[]): string {
  const result = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: childEnv() });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
const screen = (target = 'aalis') => tmux('capture-pane', '-p', '-J', '-t', target, '-S', '-300');
const type = (text: string, target = 'aalis') => {
  tmux('send-keys', '-t', target, '-l', text);
  tmux('send-keys', '-t', target, 'Enter');
};
const until = (text: string, target = 'aalis') =>
  waitFor(() => screen(target).includes(text), {
    timeoutMs: 20_000,
    what: () => `"${text}" on the screen:\n${screen(target)}`,
  });
const aalisCommand = () =>
  `${JSON.stringify(process.execPath)} ${JSON.stringify(AALIS_BIN)} start; echo "AALIS-EXIT=$?"; sleep 600`;

let server: OpenAiTestServer;
let workspace: { dir: string; remove(): void };
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'] });
  workspace = temporaryWorkspace(serverConfig(server.url));
});
afterAll(async () => {
  if (tmuxFound) spawnSync('tmux', ['-L', socket, 'kill-server']);
  await server.close();
  workspace.remove();
});

describe.skipIf(!tmuxFound)('aalis start in a terminal', () => {
  it(
    'chats, stops a turn with /stop and with Ctrl-C, and leaves cleanly on Ctrl-C twice',
    async () => {
      tmux('new-session', '-d', '-s', 'aalis', '-x', '110', '-y', '40', '-c', workspace.dir, aalisCommand());
      await until('Type a message');

      // A message, answered in a streamed reply that stalls; /stop stops it mid-turn.
      server.enqueue(unfinishedAnswer('The first part of a slow answer'));
      type('Hello there');
      await until('The first part of a slow answer');
      type('/stop');
      await until('This turn was stopped');
      const stopped = server.requests.filter((request) => request.path === '/v1/chat/completions')[0]!;
      await stopped.closed;
      expect(stopped.abortedByClient).toBe(true);

      // The next message is answered as usual.
      server.enqueue(textReply('Here is the second answer.'));
      type('And now?');
      await until('Here is the second answer.');

      // Ctrl-C once stops the running turn, like /stop.
      server.enqueue(unfinishedAnswer('Another slow start'));
      type('One more');
      await until('Another slow start');
      tmux('send-keys', '-t', 'aalis', 'C-c');
      await waitFor(() => screen().split('This turn was stopped').length === 3, {
        timeoutMs: 20_000,
        what: () => `a second stopped turn:\n${screen()}`,
      });

      // Ctrl-C twice (within two seconds) leaves after draining, with status 0.
      tmux('send-keys', '-t', 'aalis', 'C-c', 'C-c');
      await until('AALIS-EXIT=0');

      const text = screen();
      if (process.env.SHOW_SCREEN) console.log(text);
      expect(text).toContain('› Hello there');
      expect(text).toContain('› /stop');
      expect(text).toContain('Stopping this turn');
      expect(text).toContain('Finishing and exiting…');
      expect(text).not.toContain('NEVER SHOWN');
      expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'shows escape sequences from the model as text: the title, the clipboard and the screen stay untouched',
    async () => {
      const target = 'escapes';
      tmux('new-session', '-d', '-s', target, '-x', '110', '-y', '40', '-c', workspace.dir, aalisCommand());
      await until('Type a message', target);
      tmux('set-option', '-s', 'set-clipboard', 'on');
      const titleBefore = tmux('display-message', '-p', '-t', target, '#{pane_title}');
      const hostile = '\x1b]2;PWNED-TITLE\x07\x1b]52;c;UFdORUQtQ0xJUA==\x07\x1b[?1049h\x1b[2J';
      server.enqueue(
        textReply(`Plain start ${hostile}plain end.`, { chunkSize: 5, reasoning: `Thinking ${hostile}done` }),
        {
          type: 'stream',
          steps: [
            { role: 'assistant' },
            { toolCall: { id: 'call_1', name: 'calculator', arguments: `{"expression":"1+${hostile}"}` } },
            { finish: 'tool_calls' },
            { done: true },
          ],
        },
        textReply('After the tool.'),
      );
      type('Hello', target);
      await until('plain end.', target);
      type('Use the calculator', target);
      await until('After the tool.', target);
      const [title, alternate] = tmux('display-message', '-p', '-t', target, '#{pane_title}|#{alternate_on}')
        .trim()
        .split('|');
      expect(title).toBe(titleBefore.trim());
      expect(title).not.toContain('PWNED');
      expect(alternate).toBe('0');
      expect(tmux('list-buffers')).not.toContain('PWNED-CLIP');
      const text = screen(target);
      expect(text).toContain('Plain start ␛]2;PWNED-TITLE␇');
      expect(text).toContain('Type a message'); // the banner was not cleared away
      tmux('send-keys', '-t', target, 'C-c', 'C-c');
      await until('AALIS-EXIT=0', target);
    },
    E2E_TIMEOUT_MS,
  );
});
