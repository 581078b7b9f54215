// Skills through the real agent: skill_save keeps a procedure where the turn happens, a related turn gets it back
// at turn-context (counted in token:usage's skills bucket), another room and another person's private chat do not;
// skill_delete deletes only after the person confirmed in a later message; bounds refuse with coded errors.
import type { TokenUsageEvent } from '@aalis/api-agent';
import { sessionManager } from '@aalis/api-session-manager';
import { skills } from '@aalis/api-skills';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import skillsPlugin from './index.js';

let harness: Harness;
let usage: TokenUsageEvent[];
const ROOM = 'qq:group:700';
const OTHER_ROOM = 'qq:group:800';
const PROCEDURE = '1. 每周五下午收集本周合并的拉取请求\n2. 按标签分组\n3. 写成周报发到群里';

function say(sessionId: string, userId: string, content: string) {
  const venue = sessionId.split(':')[2];
  return harness.agent.handleMessage({
    sessionId,
    platform: 'qq',
    ...(venue ? { venue } : {}),
    sender: { userId, displayName: userId === '111' ? 'Ann' : 'Bob' },
    content,
    triggerType: 'direct',
  });
}

function lastRequest() {
  return harness.requests().at(-1)!;
}

function skillsBlock(): string | undefined {
  const block = lastRequest().messages.find((message) => String(message.content).startsWith('[技能]'));
  return block === undefined ? undefined : String(block.content);
}

function lastToolResult(): string {
  return String(
    lastRequest()
      .messages.filter((message) => message.role === 'tool')
      .at(-1)?.content,
  );
}

beforeAll(async () => {
  harness = await startHarness({ extra: [[skillsPlugin, { maxSkills: 3, maxContentChars: 200 }]] });
  usage = harness.booted.capture('token:usage');
  const manager = harness.booted.app.services.selected(sessionManager)!.impl;
  for (const [id, venue] of [
    [ROOM, '700'],
    [OTHER_ROOM, '800'],
  ] as const) {
    await manager.ensure({ id, kind: 'room', platform: 'qq', venue, originChat: { multiParty: true } });
  }
  await manager.ensure({
    id: 'qq:private:111',
    kind: 'room',
    platform: 'qq',
    venue: '111',
    originChat: { multiParty: false },
  });
});

afterAll(async () => {
  await harness?.close();
});

describe('skills', () => {
  it('saves a procedure in the room and gives it back to a related turn there, in the skills bucket', async () => {
    harness.server.enqueue(
      toolCallReply([{ name: 'skill_save', arguments: { name: '整理周报', content: PROCEDURE } }]),
      textReply('存好了。'),
    );
    await say(ROOM, '111', '以后周报就按这个做法来');
    expect(lastToolResult()).toBe('已存下技能「整理周报」（范围：room:qq:700）。');

    harness.server.enqueue(textReply('好的。'));
    await say(ROOM, '222', '这周的周报谁来写？');
    expect(skillsBlock()).toBe(
      `[技能]\n下面是你以前存下的、可能和这一轮有关的技能（你自己总结的做法，合适时参考；不改变上面的规则）：\n\n## 整理周报\n${PROCEDURE}`,
    );
    // After all history: the block sits after the history, just before this turn's input.
    const messages = lastRequest().messages;
    const blockAt = messages.findIndex((message) => String(message.content).startsWith('[技能]'));
    expect(messages.slice(blockAt + 1).some((message) => String(message.content).includes('这周的周报谁来写'))).toBe(
      true,
    );
    expect(usage.at(-1)?.breakdown.skills).toBeGreaterThan(20);

    harness.server.enqueue(textReply('嗯。'));
    await say(ROOM, '222', '今天天气不错');
    expect(skillsBlock()).toBeUndefined();
    expect(usage.at(-1)?.breakdown.skills).toBe(0);
  });

  it('does not carry a room’s skill into another room, nor a private skill into a room or to someone else', async () => {
    harness.server.enqueue(textReply('不知道。'));
    await say(OTHER_ROOM, '111', '周报怎么写？');
    expect(skillsBlock()).toBeUndefined();

    harness.server.enqueue(
      toolCallReply([
        { name: 'skill_save', arguments: { name: 'tea', content: 'brew jasmine tea at 80 °C for 3 minutes' } },
      ]),
      textReply('Saved.'),
    );
    await say('qq:private:111', '111', 'remember how I brew my tea');
    expect(lastToolResult()).toBe('已存下技能「tea」（范围：private:qq:111）。');
    harness.server.enqueue(textReply('ok'));
    await say(ROOM, '111', 'how do I brew jasmine tea?');
    expect(skillsBlock()).toBeUndefined();
    harness.server.enqueue(textReply('ok'));
    await say('qq:private:111', '111', 'how do I brew jasmine tea?');
    expect(skillsBlock()).toContain('## tea');
  });

  it('shares a skill everywhere only when the owner asks, and skill_search finds what this turn may use', async () => {
    harness.server.enqueue(
      toolCallReply([{ name: 'skill_save', arguments: { name: 'greeting', content: 'wave first', shared: true } }]),
      textReply('no'),
    );
    await say(ROOM, '111', 'share this everywhere');
    expect(lastToolResult()).toBe('只有 owner 能把技能设成所有对话都能用；没有存。可以不设 shared 再存一次。');

    harness.server.enqueue(
      toolCallReply([
        { name: 'skill_save', arguments: { name: 'greeting', content: 'wave first, then smile', shared: true } },
      ]),
      textReply('done'),
    );
    await harness.say('share the greeting');
    expect(lastToolResult()).toBe('已存下技能「greeting」（范围：global）。');

    harness.server.enqueue(
      toolCallReply([{ name: 'skill_search', arguments: { query: 'greeting tea 周报' } }]),
      textReply('.'),
    );
    await say(OTHER_ROOM, '222', 'what skills do you have?');
    const found = lastToolResult();
    expect(found).toContain('## greeting');
    expect(found).not.toContain('tea');
    expect(found).not.toContain('整理周报');
  });

  it('refuses what is too long or past the bound, with coded errors that say how to fix it', async () => {
    harness.server.enqueue(
      toolCallReply([{ name: 'skill_save', arguments: { name: 'essay', content: 'x'.repeat(250) } }]),
      textReply('sorry'),
    );
    await say(ROOM, '111', 'save this essay');
    expect(lastToolResult()).toBe('技能「essay」有 250 字，最多能存 200 字。请精简步骤后再存。');

    harness.server.enqueue(
      toolCallReply([{ name: 'skill_save', arguments: { name: 'fourth', content: 'one too many' } }]),
      textReply('sorry'),
    );
    await say(ROOM, '111', 'save one more');
    expect(lastToolResult()).toBe(
      '已经存了 3 个技能，达到上限（plugins.skills.maxSkills）。请先删掉不再需要的技能再存。',
    );
  });

  it('deletes only after the person confirmed in a later message, and only theirs', async () => {
    const service = harness.booted.app.services.selected(skills)!.impl;
    harness.server.enqueue(
      toolCallReply([{ name: 'skill_delete', arguments: { skill: '整理周报' } }]),
      toolCallReply([{ name: 'skill_delete', arguments: { skill: '整理周报', confirm: true } }]),
      textReply('要删除「整理周报」吗？'),
    );
    await say(ROOM, '111', '把周报的技能删了吧');
    expect(lastToolResult()).toBe(
      '还没有删除：确认必须来自对方在这之后发的消息。请先问对方，等对方回复同意后再用 confirm: true 调用。',
    );
    expect((await service.list()).map((skill) => skill.name)).toContain('整理周报');

    harness.server.enqueue(
      toolCallReply([{ name: 'skill_delete', arguments: { skill: '整理周报', confirm: true } }]),
      textReply('只有存它的人能确认。'),
    );
    await say(ROOM, '222', '确定，删吧');
    expect(lastToolResult()).toBe('技能「整理周报」不是这一轮的说话人存的，只有存它的人或 owner 能删。');

    harness.server.enqueue(
      toolCallReply([{ name: 'skill_delete', arguments: { skill: '整理周报', confirm: true } }]),
      textReply('删了。'),
    );
    await say(ROOM, '111', '确定，删吧');
    expect(lastToolResult()).toBe('已删除技能「整理周报」。');
    expect((await service.list()).map((skill) => skill.name)).not.toContain('整理周报');
  });
});
