// plugin-agent.zh.md 「扩展点」 and api-agent.zh.md 「钩子」: each hook stage intercepting, preprocessors,
// agent:prompt contributions with promptBuildTimeoutMs.
import { agent } from '@aalis/api-agent';
import { contributions } from '@aalis/api-contributions';
import { hooks } from '@aalis/api-hooks';
import { definePlugin, optional } from '@aalis/core';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './agent-harness.case.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const contents = (messages: Array<Record<string, unknown>>) => messages.map((m) => String(m.content ?? ''));

function stopAt(key: 'agent:input:before' | 'agent:turn:before' | 'agent:llm:before' | 'agent:tool:before') {
  return definePlugin({
    name: `@test/stop-${key.replaceAll(':', '-')}`,
    uses: { hooks },
    apply({ hooks }) {
      hooks.use.middleware(key, async () => {});
    },
  });
}

describe('钩子: a middleware that does not call next', () => {
  it('agent:input:before drops the input: no turn, nothing archived, the stream end marker still goes out', async () => {
    harness = await startHarness({ extra: [stopAt('agent:input:before')] });
    const stream = harness.booted.capture('outbound:stream');
    await harness.say('dropped');
    expect(harness.requests()).toHaveLength(0);
    expect(await harness.history()).toEqual([]);
    expect(stream.some((fragment) => fragment.done)).toBe(true);
  });

  it('agent:turn:before stops the turn: nothing archived, no agent:turn:after', async () => {
    let after = 0;
    harness = await startHarness({
      extra: [
        stopAt('agent:turn:before'),
        definePlugin({
          name: '@test/after',
          uses: { hooks },
          apply({ hooks }) {
            hooks.use.middleware('agent:turn:after', async (_c, next) => {
              after++;
              await next();
            });
          },
        }),
      ],
    });
    await harness.say('blocked');
    expect(harness.requests()).toHaveLength(0);
    expect(await harness.history()).toEqual([]);
    expect(after).toBe(0);
  });

  it('agent:llm:before intercepts the model call: the input is archived, the turn ends silent', async () => {
    harness = await startHarness({ extra: [stopAt('agent:llm:before')] });
    await harness.say('intercepted');
    expect(harness.requests()).toHaveLength(0);
    const stored = await harness.history();
    expect(stored.map((m) => m.kind ?? m.role)).toEqual(['user', 'event-marker']);
    expect(stored[1]!.metadata?.turnRecord).toMatchObject({ outcome: 'silent' });
  });

  it('agent:tool:before refuses the call: it is answered with an error, and a tool:execute pair is emitted', async () => {
    let ran = 0;
    harness = await startHarness({
      extra: [stopAt('agent:tool:before')],
      tools: [
        {
          name: 'act',
          description: 'acts',
          parameters: { type: 'object', properties: {} },
          handler: () => {
            ran++;
            return 'acted';
          },
        },
      ],
    });
    const events = harness.booted.capture('tool:execute');
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'act', arguments: {} }]), textReply('ok'));
    await harness.say('act now');
    expect(ran).toBe(0);
    expect(events.map((event) => event.phase)).toEqual(['start', 'end']);
    expect(String(harness.requests()[1]!.messages.at(-1)!.content)).toContain('没有执行');
  });
});

describe('agent:llm:after', () => {
  it('carries each call’s prompt as sent: the trimmed messages, the model and the tool definitions on the wire', async () => {
    const seen: Array<{ messages: unknown[]; model: string; tools: unknown[]; iteration: number }> = [];
    harness = await startHarness({
      tools: [
        {
          name: 'clock',
          description: 'tells the time',
          parameters: { type: 'object', properties: {} },
          group: undefined,
          handler: () => '12:00',
        },
      ],
      extra: [
        definePlugin({
          name: '@test/llm-after',
          uses: { hooks },
          apply({ hooks }) {
            hooks.use.middleware('agent:llm:after', async (context, next) => {
              seen.push({
                messages: context.messages,
                model: context.model,
                tools: context.tools,
                iteration: seen.length,
              });
              await next();
            });
          },
        }),
      ],
    });
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'clock', arguments: {} }]), textReply('noon'));
    await harness.say('what time is it?');
    const bodies = harness.requests();
    expect(seen).toHaveLength(2);
    seen.forEach((call, index) => {
      expect(call.model).toBe('test/test-model');
      // The same prompt the server received: tool definitions, then messages, in wire form.
      expect(bodies[index]!.tools).toEqual(call.tools.map((tool) => ({ type: 'function', function: tool })));
      expect(bodies[index]!.messages.map((message) => message.content ?? null)).toEqual(
        (call.messages as Array<{ content: string }>).map((message) => message.content || null),
      );
    });
  });
});

describe('预处理器', () => {
  it('registerPreprocessor rewrites inputs before they are archived (the 典型用法 example)', async () => {
    harness = await startHarness({
      extra: [
        definePlugin({
          name: '@acme/plugin-example-agent',
          uses: { agent: optional(agent), hooks },
          apply({ agent }) {
            agent.use.registerPreprocessor('suffix', async (message, next) => {
              message.content += ' [logged]';
              await next();
            });
          },
        }),
      ],
    });
    harness.server.enqueue(textReply('ok'));
    await harness.say('hello');
    expect(contents(harness.requests()[0]!.messages).at(-1)).toMatch(/hello \[logged\]$/);
  });
});

describe('agent:prompt contributions', () => {
  it('places blocks at their anchors, and one whose build hangs is absent from that turn only', async () => {
    let hang = true;
    harness = await startHarness({
      agentConfig: { promptBuildTimeoutMs: 50 },
      extra: [
        definePlugin({
          name: '@test/prompt',
          uses: { contributions },
          apply({ contributions }) {
            contributions.use.contribute('agent:prompt', {
              id: 'summary',
              anchor: 'head',
              category: 'memorySummary',
              build: () => '[摘要] earlier talk',
            });
            contributions.use.contribute('agent:prompt', {
              id: 'slow',
              anchor: 'turn-context',
              build: () => (hang ? new Promise<string>(() => {}) : '[检索] found'),
            });
          },
        }),
      ],
    });
    harness.server.enqueue(textReply('one'), textReply('two'));
    await harness.say('first');
    hang = false;
    await harness.say('second');
    const [first, second] = harness.requests().map((request) => contents(request.messages));
    expect(first![1]).toBe('[摘要] earlier talk');
    expect(first!.some((c) => c === '[检索] found')).toBe(false);
    expect(second!.some((c) => c === '[检索] found')).toBe(true);
    // The head block and the earlier history stay byte-identical: the second request starts with the first's prefix.
    expect(second!.slice(0, 2)).toEqual(first!.slice(0, 2));
  });
});
