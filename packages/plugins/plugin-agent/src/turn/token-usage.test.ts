// plugin-agent.zh.md 「Token 预算追踪与日志」 and api-agent.zh.md 「用量(token:usage)」.

import type { TokenUsageEvent } from '@aalis/api-agent';
import { translate } from '@aalis/core';
import { renderNoticeText } from '@aalis/schema-message';
import { textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../agent-harness.case.js';
import { formatUsageLine, UsageLogThrottle, usageTag } from './usage-report.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('token:usage', () => {
  it('is emitted after each successful call with the turn id, used from the provider, and history counts', async () => {
    harness = await startHarness({
      tools: [
        { name: 'ping', description: 'pings', parameters: { type: 'object', properties: {} }, handler: () => 'pong' },
      ],
    });
    const usage = harness.booted.capture('token:usage');
    harness.server.enqueue(
      toolCallReply([{ id: 'c1', name: 'ping', arguments: {} }], { usage: { promptTokens: 321, completionTokens: 5 } }),
      textReply('done', { usage: { promptTokens: 0, completionTokens: 1 } }),
    );
    await harness.say('ping please');
    expect(usage).toHaveLength(2);
    const [first, second] = usage;
    expect(first!.turnId).toBeDefined();
    expect(first!.turnId).toBe(second!.turnId);
    expect(first!.used).toBe(321);
    expect(first!.usageRatio).toBeCloseTo(321 / 32_000);
    // promptTokens 0 is not a positive number: the estimate of what was sent is used.
    expect(second!.used).toBeGreaterThan(0);
    expect(second!.used).not.toBe(0);
    // The opened input counts at turn start; the tool call and its result are appended before the second call.
    expect(first!.historyMessages).toBe(1);
    expect(second!.historyMessages).toBe(3);
    expect(first!.historyLimit).toBe(0);
    expect(first!.maxTokens).toBe(1_024);
    expect(first!.tokenBudget).toBe(32_000 - 1_024 - 512);
    expect(first!.breakdown.toolDefs).toBeGreaterThan(0);
    expect(second!.breakdown.toolResults).toBeGreaterThan(0);
    expect(first!.parts.map((part) => (typeof part.label === 'string' ? part.label : part.label.key))).toEqual([
      'agent.usage.history',
      'agent.usage.toolResults',
      'agent.usage.toolDefs',
      'agent.usage.persona',
      'agent.usage.memorySummary',
      'agent.usage.memoryVector',
      'agent.usage.skills',
      'agent.usage.platform',
      'agent.usage.subtask',
      'agent.usage.systemOther',
    ]);
  });

  it('is not emitted for a call that fails, and the turn ends in error with an [错误] notice carrying the turn id', async () => {
    harness = await startHarness();
    const usage = harness.booted.capture('token:usage');
    const replies = harness.booted.capture('outbound:message');
    harness.server.enqueue({ type: 'error', status: 400, message: 'bad request from test' });
    await harness.say('fail please');
    expect(usage).toHaveLength(0);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.kind).toBe('error');
    expect(replies[0]!.content.startsWith('[错误]')).toBe(true);
    expect(replies[0]!.turnId).toBeDefined();
    // Its catalogue text goes with it: a reader in English is shown the same notice in English.
    const text = replies[0]!.text!;
    expect(text.key).toBe('agent.notice.error');
    expect(renderNoticeText(text, (flat) => translate(flat, 'zh-CN'))).toBe(replies[0]!.content);
    expect(renderNoticeText(text, (flat) => translate(flat, 'en'))).toMatch(/^\[Error\] .*bad request from test/);
  });

  it('answers token:request with a snapshot: estimate only, no turn id, active history count', async () => {
    harness = await startHarness();
    harness.server.enqueue(textReply('a'));
    await harness.say('one');
    const usage = harness.booted.capture('token:usage');
    harness.booted.app.emit('token:request', { sessionId: 'cli:owner' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(usage).toHaveLength(1);
    expect(usage[0]!.turnId).toBeUndefined();
    expect(usage[0]!.historyMessages).toBe(2);
    expect(usage[0]!.platform).toBe('webui');
    expect(harness.requests()).toHaveLength(1);
  });
});

describe('节流日志', () => {
  const event = (ratio: number, turnId: string) =>
    ({
      sessionId: 's',
      turnId,
      platform: 'cli',
      contextWindow: 32000,
      maxTokens: 4096,
      tokenBudget: 27392,
      used: Math.round(32000 * ratio),
      usageRatio: ratio,
      trimmed: false,
      untrimmedHistory: 0,
      historyMessages: 0,
      historyLimit: 0,
      breakdown: {
        system: 6100,
        persona: 2300,
        memorySummary: 1800,
        memoryVector: 0,
        skills: 900,
        platform: 0,
        subtask: 0,
        systemOther: 1100,
        history: 8901,
        toolResults: 5400,
        toolDefs: 2703,
        reservedForReply: 4096,
        injectors: {},
      },
      parts: [],
    }) satisfies TokenUsageEvent;

  it('labels the ratio buckets < 0.5 / 0.5–0.7 / 0.7–0.85 / ≥ 0.85 as OK / INFO / WARN / CRITICAL', () => {
    expect([0.1, 0.5, 0.72, 0.85].map(usageTag)).toEqual(['OK', 'INFO', 'WARN', 'CRITICAL']);
  });

  it('formats the line like the document’s sample', () => {
    expect(formatUsageLine({ ...event(0.722, 't'), used: 23104 })).toBe(
      '[token-usage:WARN] s 23104/32000 (72.2%) sys=6100(persona=2300 mem=1800 skills=900 subtask=0 other=1100) hist=8901 tools=5400+2703def reserve=4096',
    );
  });

  it('prints on a bucket change (first time and falling back included) and every 10 turns', () => {
    const throttle = new UsageLogThrottle(10);
    const printed: boolean[] = [];
    for (let turn = 1; turn <= 20; turn++) printed.push(throttle.shouldLog(event(0.1, `t${turn}`)));
    expect(printed.map((p, i) => (p ? i + 1 : 0)).filter(Boolean)).toEqual([1, 10, 20]);
    expect(throttle.shouldLog(event(0.6, 't21'))).toBe(true);
    expect(throttle.shouldLog(event(0.6, 't21'))).toBe(false);
    expect(throttle.shouldLog(event(0.2, 't22'))).toBe(true);
  });
});
