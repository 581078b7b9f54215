// plugin-budget with the real agent, gateway, commands, authority, storage and an OpenAI-compatible server of our
// own, on SQLite and PostgreSQL: a person's daily budget runs out in the middle of a tool loop (the next model call
// is replaced by a notice), the owner is warned once at 80 %, owners are exempt, /budget shows and adjusts, and two
// processes on one PostgreSQL count against the same budget.
import type { Tool } from '@aalis/api-tools';
import { translate } from '@aalis/core';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { renderNoticeText } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import budgetPlugin from './index.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0).reverse()) await harness.close();
});

const echo: Tool = {
  name: 'echo',
  description: 'Echoes its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: (args) => String(args.text),
};

async function boot(budget: Record<string, unknown>, storage?: Record<string, unknown>, server?: Harness['server']) {
  const harness = await startHarness({
    extra: [[budgetPlugin, budget]],
    tools: [echo],
    ...(storage ? { storage } : {}),
    ...(server ? { server } : {}),
  });
  harnesses.push(harness);
  return harness;
}

const alice = { sessionId: 'cli:alice', sender: { userId: 'alice' } };
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const usage = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`plugin-budget (${engine})`, () => {
    const storage = async () => (engine === 'postgres' ? { database: await throwawayDatabase() } : undefined);

    it('replaces the model call with a notice once a person is over budget, mid-conversation, and warns the owner once', async () => {
      const harness = await boot({ personPerDay: 100 }, await storage());
      const sent = harness.booted.capture('outbound:message');
      harness.server.enqueue(textReply('first answer', usage(50, 35)));
      await harness.say('hello', alice);
      // 85 of 100: the owner is told (once), in their private chat.
      const warnings = () => sent.filter((message) => message.content.startsWith('[预算提醒]'));
      await until(() => warnings().length === 1, 'the warning');
      expect(warnings()[0]).toMatchObject({ sessionId: 'cli:private:owner', platform: 'cli', kind: 'system' });
      expect(warnings()[0]?.content).toMatch(
        /^\[预算提醒\] 用户 cli:alice已用到额度的 85%（已用 85 token，上限 100 token；\d{4}-\d\d-\d\d）/,
      );
      // The tool loop's first call pushes her over: the second call does not reach the model.
      harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'echo', arguments: '{"text":"x"}' }], usage(20, 10)));
      await harness.say('use the tool', alice);
      expect(harness.requests()).toHaveLength(2);
      expect(sent.at(-1)).toMatchObject({
        sessionId: 'cli:alice',
        kind: 'system',
        content: '你今天的额度用完了（已用 115 token，上限 100 token），这次先不回答了。额度重置后再来吧。',
      });
      // Its catalogue text goes with it: a reader in English (the WebUI) is shown the same notice in English.
      const over = sent.at(-1)!.text!;
      expect(renderNoticeText(over, (flat) => translate(flat, 'zh-CN'))).toBe(sent.at(-1)!.content);
      expect(renderNoticeText(over, (flat) => translate(flat, 'en'))).toBe(
        'Your daily budget is used up (115 tokens of 100 tokens), so I am not answering this time. Try again once it resets.',
      );
      expect(renderNoticeText(warnings()[0]!.text!, (flat) => translate(flat, 'zh-CN'))).toBe(warnings()[0]!.content);
      expect(warnings()).toHaveLength(1);
      // Nothing lost: both inputs are in the history.
      const contents = (await harness.history('cli:alice')).map((message) => message.content);
      expect(contents.some((content) => content.includes('use the tool'))).toBe(true);
      // The owner is exempt.
      harness.server.enqueue(textReply('owner answer', usage(500, 500)));
      await harness.say('and me?');
      expect(sent.at(-1)?.content).toBe('owner answer');
    });

    it('/budget shows the caller’s budgets; only an owner sets them', async () => {
      const harness = await boot({ roomPerDay: 1000 }, await storage());
      harness.server.enqueue(textReply('ok', usage(30, 12)));
      await harness.say('hi');
      const shown = await harness.command('/budget');
      expect(shown[0]).toContain('这个会话今天的额度：已用 42 token / 1000 token');
      expect(shown[0]).toContain('你今天的额度：已用 42 token / 不限');
      expect(await harness.command('/budget set person 200')).toEqual(['已把你今天的额度设为 200 token。']);
      expect((await harness.command('/budget'))[0]).toContain('你今天的额度：已用 42 token / 200 token');
      expect((await harness.command('/budget set person lots'))[0]).toMatch(/^看不懂「set person lots」/);
    });

    if (engine === 'postgres') {
      it('counts two processes against one budget', async () => {
        const database = await throwawayDatabase();
        const a = await boot({ deploymentPerMonth: 60 }, { database });
        const b = await boot({ deploymentPerMonth: 60 }, { database });
        a.server.enqueue(textReply('from a', usage(30, 10)));
        await a.say('one', alice);
        b.server.enqueue(textReply('from b', usage(30, 10)));
        await b.say('two', { sessionId: 'cli:bob', sender: { userId: 'bob' } });
        const sent = a.booted.capture('outbound:message');
        await a.say('three', alice);
        expect(a.requests()).toHaveLength(1);
        expect(sent.at(-1)?.content).toMatch(/^本月全部的额度用完了（已用 80 token，上限 60 token）/);
      });
    }
  });
}
