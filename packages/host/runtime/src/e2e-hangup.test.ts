// End to end: the terminal of `aalis start` is closed in the middle of a turn. Its input ends (reads and leaving raw
// mode fail with EIO) and SIGHUP arrives, as a login shell passes it on to its jobs: Aalis drains like on SIGTERM — the
// running turn stops cleanly, exit status 0, no stack trace, the history intact.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AALIS_BIN,
  childEnv,
  E2E_TIMEOUT_MS,
  runAalis,
  serverConfig,
  temporaryWorkspace,
  unfinishedAnswer,
  waitFor,
} from './spawn-aalis.case.js';

const tmuxFound = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!tmuxFound) {
  console.warn('SKIPPED: tmux was not found (apt-get install tmux); .ci/run installs it so CI never skips.');
}

const socket = `aalis-hangup-${process.pid}`;
function tmux(...args: string[]): string {
  const result = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: childEnv() });
  if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'hangup');

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

describe.skipIf(!tmuxFound)('aalis start when its terminal is closed', () => {
  it(
    'a closed terminal (input gone, SIGHUP) drains like SIGTERM: the turn stops cleanly, exit 0, no stack trace',
    async () => {
      const errors = join(workspace.dir, 'stderr.txt');
      const status = join(workspace.dir, 'status.txt');
      // The wrapper outlives the terminal (it ignores SIGHUP) only to write down how aalis ended.
      const command = `trap '' HUP; ${JSON.stringify(process.execPath)} ${JSON.stringify(AALIS_BIN)} start 2>${JSON.stringify(errors)}; echo $? >${JSON.stringify(status)}`;
      tmux('new-session', '-d', '-s', 'hangup', '-x', '100', '-y', '30', '-c', workspace.dir, 'bash', '-c', command);
      await waitFor(() => screen().includes('Type a message'), { timeoutMs: 30_000, what: () => screen() });
      server.enqueue(unfinishedAnswer('Once upon a time'));
      tmux('send-keys', '-t', 'hangup', '-l', 'Tell me a long story.');
      tmux('send-keys', '-t', 'hangup', 'Enter');
      await waitFor(() => screen().includes('Once upon a time'), { what: () => screen() });
      const shell = tmux('display-message', '-p', '-t', 'hangup', '#{pane_pid}').trim();
      const aalis = spawnSync('pgrep', ['-P', shell], { encoding: 'utf8' }).stdout.trim();
      expect(aalis).toMatch(/^\d+$/);
      tmux('kill-server'); // the terminal goes away
      process.kill(Number(aalis), 'SIGHUP');
      await waitFor(() => existsSync(status) && readFileSync(status, 'utf8').trim() !== '', {
        timeoutMs: 20_000,
        what: 'aalis to exit',
      });
      const stderr = readFileSync(errors, 'utf8');
      expect(readFileSync(status, 'utf8').trim(), stderr).toBe('0');
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(stderr).not.toContain('Assertion failed');
      await server.requests.find((request) => request.path === '/v1/chat/completions')!.closed;

      server.enqueue(textReply('Where were we?'));
      const again = await runAalis({ cwd: workspace.dir, args: ['chat'], input: 'Are you there?\n' });
      expect(again.code).toBe(0);
      const bodies = server.chatBodies() as Array<{ messages: Array<{ content: string | null }> }>;
      const history = bodies
        .at(-1)!
        .messages.map((message) => message.content ?? '')
        .join('\n');
      expect(history).toContain('Tell me a long story.');
      expect(history).toContain('[Stopped] The previous turn was stopped before it finished');
      expect(history).not.toContain('Once upon a time');
    },
    E2E_TIMEOUT_MS,
  );
});
