// End to end: the real `aalis chat` process against the scripted OpenAI-compatible test fixture.server.
import { textReply, toolCallReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, serverConfig } from './spawn-aalis.case.js';
import { expectDrainOnSignal, useSpawnFixture } from './spawn-fixture.case.js';

type ChatBody = {
  messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }>;
  tools?: unknown[];
};

const fixture = useSpawnFixture();
const { workspace } = fixture;
const bodies = () => fixture.bodies<ChatBody>();

describe('aalis chat', () => {
  it(
    'runs a conversation with a tool call, and after a restart the next request carries the history',
    async () => {
      const cwd = workspace(serverConfig(fixture.server.url));
      fixture.server.enqueue(
        toolCallReply([{ id: 'call_calc', name: 'calculator', arguments: { expression: '6*7' } }]),
        textReply('6 times 7 is 42.'),
      );
      const first = await runAalis({ cwd, args: ['chat'], input: 'What is 6*7?\n' });
      expect(first.stderr).not.toContain('[error]');
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('6 times 7 is 42.\n');
      const [call, answer] = bodies();
      expect((call!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toContain(
        'calculator',
      );
      expect(answer!.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });

      fixture.server.enqueue(textReply('You asked what 6*7 is.'));
      const second = await runAalis({ cwd, args: ['chat'], input: 'What did I ask you?\n' });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('You asked what 6*7 is.\n');
      const after = bodies()[2]!.messages;
      const roles = after.filter((message) => message.role !== 'system').map((message) => message.role);
      expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
      const texts = after.map((message) => message.content ?? '').join('\n');
      expect(texts).toContain('What is 6*7?');
      expect(texts).toContain('6 times 7 is 42.');
      expect(after.at(-1)!.content).toContain('What did I ask you?');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'prints one reply per input line, in order, and talks in the --session given',
    async () => {
      const cwd = workspace(serverConfig(fixture.server.url));
      fixture.server.enqueue(textReply('one'), textReply('two'), textReply('three'));
      const run = await runAalis({ cwd, args: ['chat', '--session', 'script-1'], input: 'a\nb\n\nc\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('one\ntwo\nthree\n');
      fixture.server.enqueue(textReply('fresh'));
      await runAalis({ cwd, args: ['chat', '--session', 'script-2'], input: 'd\n' });
      const isolated = bodies()[3]!.messages.filter((message) => message.role !== 'system');
      expect(isolated).toHaveLength(1);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'drains on SIGTERM: the running turn stops cleanly, nothing half-written, the history intact',
    () => expectDrainOnSignal(fixture, 'SIGTERM'),
    E2E_TIMEOUT_MS,
  );

  it(
    'exits with status 2 and one message for a configuration that cannot start',
    async () => {
      const cwd = workspace('locale: en\nllm:\n  model: [not, a, string]\n');
      const run = await runAalis({ cwd, args: ['chat'], input: 'hi\n' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('llm.model expected a string, received an array');
      expect(run.stdout).toBe('');
    },
    E2E_TIMEOUT_MS,
  );
});
