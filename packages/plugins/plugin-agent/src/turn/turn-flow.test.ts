// plugin-agent.zh.md 「核心流程」 and 「保存」, driven through a real App and the HTTP test server.

import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('核心流程', () => {
  it('replies: system prompt first, the archived input last, and the reply stored with the turn id', async () => {
    harness = await startHarness({ agentConfig: { systemPrompt: '你是测试助手。' } });
    harness.server.enqueue(textReply('你好!'));
    const replies = harness.booted.capture('outbound:message');
    await harness.say('在吗');
    const [request] = harness.requests();
    expect(request!.messages[0]).toMatchObject({ role: 'system' });
    expect(String(request!.messages[0]!.content)).toContain('你是测试助手。');
    expect(String(request!.messages.at(-1)!.content)).toMatch(/在吗$/);
    expect(replies.map((reply) => [reply.kind, reply.content])).toEqual([['reply', '你好!']]);
    const history = await harness.history();
    const input = history.find((message) => message.role === 'user')!;
    const reply = history.find((message) => message.role === 'assistant')!;
    expect(input.metadata?.[WellKnownMetadataKeys.TurnEntry]).toBe('opened');
    expect(reply.metadata?.[WellKnownMetadataKeys.TurnId]).toBe(input.metadata?.[WellKnownMetadataKeys.TurnId]);
    expect(reply.metadata?.[WellKnownMetadataKeys.TurnRecord]).toMatchObject({ outcome: 'replied' });
  });

  it('runs the tool loop and sends the next request with the group after the input', async () => {
    harness = await startHarness({
      tools: [
        {
          name: 'lookup',
          description: 'Looks something up',
          parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          handler: ({ q }) => `found ${String(q)}`,
        },
      ],
    });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }]), textReply('done'));
    await harness.say('look it up');
    const second = harness.requests()[1]!;
    const tail = second.messages.slice(-2);
    expect(tail[0]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'c1' }] });
    expect(tail[1]).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: 'found x' });
    const stored = await harness.history();
    const result = stored.find((message) => message.role === 'tool')!;
    expect(typeof result.metadata?.[WellKnownMetadataKeys.CallId]).toBe('string');
  });

  it('bad JSON arguments are not executed, go back to the model with the first 200 characters, and are stored as {}', async () => {
    let ran = 0;
    harness = await startHarness({
      tools: [
        {
          name: 'lookup',
          description: 'Looks something up',
          parameters: { type: 'object', properties: {} },
          handler: () => {
            ran++;
            return 'ran';
          },
        },
      ],
    });
    const executes = harness.booted.capture('tool:execute');
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'lookup', arguments: '{"q": oops' }]), textReply('ok'));
    await harness.say('go');
    expect(ran).toBe(0);
    const second = harness.requests()[1]!;
    const assistant = second.messages.at(-2) as { tool_calls: Array<{ function: { arguments: string } }> };
    expect(assistant.tool_calls[0]!.function.arguments).toBe('{}');
    expect(String(second.messages.at(-1)!.content)).toContain('{"q": oops');
    expect(executes.map((event) => event.phase)).toEqual(['start', 'end']);
  });
});
