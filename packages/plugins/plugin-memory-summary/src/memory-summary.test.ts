// plugin-memory-summary through the real agent: auto-compaction line, historyLimit full compaction, snapshots,
// the head summary block, /compact, failures.
import { sessionFields } from '@aalis/api-session-settings';
import { estimateTextTokens } from '@aalis/context-budget';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type SummaryHarness, startSummaryHarness, summaryReply } from './memory-summary.case.js';

let harness: SummaryHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const dividers = (messages: Message[]) => messages.filter((message) => message.kind === 'compression-divider');
const high = { usage: { promptTokens: 27_000, completionTokens: 5 } }; // 27000 / 32000 ≈ 0.84
const low = { usage: { promptTokens: 100, completionTokens: 5 } };

/** One turn answered by `reply`; `then` is queued for the calls after it (the summary call). */
async function turn(h: SummaryHarness, content: string, reply: ScriptedReply, ...then: ScriptedReply[]) {
  h.server.enqueue(reply, ...then);
  await h.say(content);
  await h.settle();
}

describe('auto-compaction line', () => {
  it('a turn crossing the line triggers exactly one compaction; the next request has the summary at the head and not the compacted messages', async () => {
    harness = await startSummaryHarness();
    const usage = harness.booted.capture('token:usage');
    const compacted = harness.booted.capture('summary:compacted');
    await turn(harness, 'alpha question', textReply('alpha answer', low));
    expect(compacted).toHaveLength(0);

    await turn(
      harness,
      'beta question',
      textReply('beta answer', high),
      summaryReply('Goal: finish alpha. Decided: use beta.'),
    );
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ sessionId: 'cli:owner', trigger: 'usage-line', messages: 4 });

    // The summary request starts with the turn's own prompt, byte for byte (the provider's prompt cache serves it),
    // then asks for the summary, with the reply stored after that prompt as a transcript.
    const [, conversationCall, summaryCall] = harness.requests();
    expect(summaryCall!.messages.slice(0, -1)).toEqual(conversationCall!.messages);
    expect(JSON.stringify(summaryCall!.messages.slice(0, -1))).toBe(JSON.stringify(conversationCall!.messages));
    expect(summaryCall!.tools).toEqual(conversationCall!.tools);
    const ask = summaryCall!.messages.at(-1)!;
    expect(ask.role).toBe('user');
    expect(ask.content).toContain('对话在这里暂停');
    expect(ask.content).toContain('压缩一段对话的历史');
    expect(ask.content).toContain('上面之后的对话记录：\n助手: beta answer');
    expect(harness.contents(1).join('\n')).toContain('alpha question');

    const stored = await harness.history();
    const [divider] = dividers(stored);
    expect(dividers(stored)).toHaveLength(1);
    expect(divider!.metadata?.[WellKnownMetadataKeys.Summary]).toBe('Goal: finish alpha. Decided: use beta.');
    expect(divider!.metadata?.[WellKnownMetadataKeys.TurnId]).toBe(usage.at(-1)!.turnId);
    expect(stored.at(-1)).toBe(stored.find((message) => message.kind === 'compression-divider'));

    await turn(harness, 'gamma question', textReply('gamma answer', low));
    expect(compacted).toHaveLength(1);
    expect(harness.requests()).toHaveLength(4);
    const next = harness.contents(3);
    expect(next[1]).toBe('[对话摘要]\nGoal: finish alpha. Decided: use beta.');
    expect(next.some((content) => content.includes('alpha') && !content.startsWith('[对话摘要]'))).toBe(false);
    expect(next.some((content) => content.includes('beta answer'))).toBe(false);
    expect(next.at(-1)).toContain('gamma question');
    // The memorySummary bucket counts the block.
    expect(usage.at(-1)!.breakdown.memorySummary).toBeGreaterThan(0);
  });

  it('decides on the turn’s last usage: a high first call followed by a low last call does not compact', async () => {
    harness = await startSummaryHarness({
      tools: [
        { name: 'ping', description: 'pings', parameters: { type: 'object', properties: {} }, handler: () => 'pong' },
      ],
    });
    const compacted = harness.booted.capture('summary:compacted');
    harness.server.enqueue(toolCallReply([{ id: 'c1', name: 'ping', arguments: {} }], high));
    await turn(harness, 'ping please', textReply('done', low));
    expect(compacted).toHaveLength(0);
    expect(harness.requests()).toHaveLength(2);
  });

  it('a hard-trimmed turn compacts even below the line', async () => {
    harness = await startSummaryHarness({ contextWindow: 4_000, maxOutputTokens: 512 });
    const compacted = harness.booted.capture('summary:compacted');
    const usage = harness.booted.capture('token:usage');
    await turn(harness, `long 1 ${'lorem ipsum dolor sit amet '.repeat(350)}`, textReply('ok 1', low));
    expect(usage.at(-1)!.trimmed).toBe(false);
    // The second long input no longer fits beside the first: the turn is hard-trimmed.
    await turn(
      harness,
      `long 2 ${'lorem ipsum dolor sit amet '.repeat(350)}`,
      textReply('ok 2', low),
      summaryReply('long texts were pasted'),
    );
    expect(usage.at(-1)!.trimmed).toBe(true);
    expect(usage.at(-1)!.usageRatio).toBeLessThan(0.8);
    expect(compacted.map((event) => event.trigger)).toEqual(['trimmed']);
    // The summary request starts with the trimmed prompt; the input trimming dropped goes in as earlier transcript.
    const ask = harness.contents(2).at(-1)!;
    expect(harness.contents(2).slice(0, -1)).toEqual(harness.contents(1));
    expect(ask).toMatch(/更早的、上面没有显示的对话记录：\n用户: .*long 1 lorem ipsum/);
    expect(ask).toContain('上面之后的对话记录：\n助手: ok 2');
  });

  it('before-trim: a turn whose history the next turn would start dropping compacts first, and nothing is trimmed', async () => {
    // Budget 4000 − 512 − 512 = 2976: step 1 drops history above 2976 − 744 = 2232 of head + history; a quarter
    // unit (186) earlier, from 2046 on, the history is summarised instead.
    harness = await startSummaryHarness({ contextWindow: 4_000, maxOutputTokens: 512 });
    const compacted = harness.booted.capture('summary:compacted');
    const usage = harness.booted.capture('token:usage');
    let long = 'long';
    while (estimateTextTokens(long) < 2_100) long += ' the quick brown fox jumps over the lazy dog';
    await turn(harness, long, textReply('noted', low), summaryReply('a long text about a fox was pasted'));
    expect(usage.at(-1)).toMatchObject({ trimmed: false });
    expect(usage.at(-1)!.usageRatio).toBeLessThan(0.8);
    expect(compacted.map((event) => event.trigger)).toEqual(['before-trim']);

    await turn(harness, 'and now?', textReply('fine', low));
    expect(usage.at(-1)).toMatchObject({ trimmed: false });
    const next = harness.contents(2);
    expect(next).toContain('[对话摘要]\na long text about a fox was pasted');
    expect(next.some((content) => content.includes('quick brown fox'))).toBe(false);
  });

  it('#15.5 before-trim counts the final reply: a long answer that takes the next turn past the cut compacts first', async () => {
    // Same budget as above (early line 2046 of head + history). The turn sends about 1850, under the line; its
    // 600-token answer is history in the next turn, which step 1 would then cut (and re-send uncached).
    harness = await startSummaryHarness({ contextWindow: 4_000, maxOutputTokens: 512 });
    const compacted = harness.booted.capture('summary:compacted');
    const usage = harness.booted.capture('token:usage');
    let long = 'long';
    while (estimateTextTokens(long) < 1_500) long += ' the quick brown fox jumps over the lazy dog';
    let answer = 'answer';
    while (estimateTextTokens(answer) < 600) answer += ' a slow green turtle walks past a sleeping cat';
    await turn(harness, long, textReply(answer, low), summaryReply('a fox text was pasted and answered at length'));
    const sent = usage.at(-1)!.breakdown;
    expect(sent.system + sent.toolDefs + sent.history + sent.toolResults).toBeLessThan(2_046);
    expect(compacted.map((event) => event.trigger)).toEqual(['before-trim']);

    await turn(harness, 'and now?', textReply('fine', low));
    expect(usage.at(-1)).toMatchObject({ trimmed: false });
    expect(harness.contents(2)).toContain('[对话摘要]\na fox text was pasted and answered at length');
  });

  it('the session field autoCompactRatio: registered for owners under advanced; 0 turns it off for the session', async () => {
    harness = await startSummaryHarness({ summaryConfig: { autoCompactRatio: 0.7 } });
    const settings = harness.booted.app.services.selected(sessionFields)!.impl;
    expect(settings.field('autoCompactRatio')?.field).toMatchObject({
      type: 'number',
      visibility: 'advanced',
      level: 'owner',
      default: 0.7,
      label: { key: 'memorySummary.field.autoCompactRatio' },
    });
    await expect(
      settings.set({
        layer: 'session',
        target: 'cli:owner',
        key: 'autoCompactRatio',
        value: 1.5,
        caller: { via: 'host' },
      }),
    ).rejects.toMatchObject({ code: 'AALIS_SETTINGS_INVALID_VALUE' });
    await settings.set({
      layer: 'session',
      target: 'cli:owner',
      key: 'autoCompactRatio',
      value: 0,
      caller: { via: 'host' },
    });
    const compacted = harness.booted.capture('summary:compacted');
    await turn(harness, 'one', textReply('a', high));
    await turn(harness, 'two', textReply('b', high));
    expect(compacted).toHaveLength(0);
    expect(dividers(await harness.history())).toHaveLength(0);
  });

  it('a second compaction merges the previous summary', async () => {
    harness = await startSummaryHarness();
    await turn(harness, 'one', textReply('a', high), summaryReply('first summary'));
    await turn(harness, 'two', textReply('b', high), summaryReply('merged summary'));
    // The conversation's prompt shows the previous summary at its head; the request says so instead of repeating it.
    const merge = harness.contents(3);
    expect(merge[1]).toBe('[对话摘要]\nfirst summary');
    expect(merge.at(-1)).toContain('上面开头的「[对话摘要]」块就是此前的摘要。');
    expect(merge.at(-1)).toContain('助手: b');
    expect(merge.join('\n')).not.toContain('one');
    const stored = dividers(await harness.history());
    expect(stored.map((divider) => divider.metadata?.[WellKnownMetadataKeys.Summary])).toEqual([
      'first summary',
      'merged summary',
    ]);
  });
});

describe('one compaction at a time, never splitting a turn', () => {
  it('a turn that runs while the summary is written is folded in before the divider is appended', async () => {
    harness = await startSummaryHarness();
    const compacted = harness.booted.capture('summary:compacted');
    harness.server.enqueue(textReply('a', high), { ...summaryReply('first pass'), delayMs: 300 });
    await harness.say('one');
    for (let waited = 0; harness.requests().length < 2 && waited < 200; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The summary call is in flight: this turn's messages arrive after the history was read.
    harness.server.enqueue(textReply('b', high), summaryReply('second pass'));
    await harness.say('two');
    await harness.settle();
    expect(compacted).toMatchObject([{ messages: 4, summary: 'second pass' }]);
    const fold = harness.contents(3);
    expect(fold[1]).toContain('此前的摘要：\nfirst pass');
    expect(fold[1]).toContain('two');
    const stored = await harness.history();
    expect(dividers(stored)).toHaveLength(1);
    expect(stored.at(-1)!.kind).toBe('compression-divider');
  });
});

describe('historyLimit full compaction', () => {
  it('compacts everything when the session reaches historyLimit messages, even with the line off', async () => {
    harness = await startSummaryHarness({ agentConfig: { historyLimit: 4 }, summaryConfig: { autoCompactRatio: 0 } });
    const compacted = harness.booted.capture('summary:compacted');
    await turn(harness, 'message 1', textReply('reply 1', low));
    expect(compacted).toHaveLength(0);
    // 3 messages at the last call + the reply = 4 = the limit.
    await turn(harness, 'message 2', textReply('reply 2', low), summaryReply('four messages summarised'));
    expect(compacted).toMatchObject([{ trigger: 'history-limit', messages: 4 }]);
    await turn(harness, 'message 3', textReply('reply 3', low));
    const next = harness.contents(3);
    expect(next[1]).toBe('[对话摘要]\nfour messages summarised');
    expect(next.filter((content) => /message [12]|reply [12]/.test(content))).toEqual([]);
    // Nothing slid out unsummarised: the request holds the summary and the new input only.
    expect(next.at(-1)).toContain('message 3');
  });
});

describe('snapshots', () => {
  it('token:request snapshots do not trigger compaction, even above the line', async () => {
    harness = await startSummaryHarness({ summaryConfig: { autoCompactRatio: 0.01 } });
    const usage = harness.booted.capture('token:usage');
    const compacted = harness.booted.capture('summary:compacted');
    await turn(harness, `big ${'lorem ipsum dolor sit amet '.repeat(100)}`, textReply('ok', low));
    harness.booted.app.emit('token:request', { sessionId: 'cli:owner' });
    for (let waited = 0; !usage.some((event) => event.turnId === undefined) && waited < 100; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const snapshot = usage.find((event) => event.turnId === undefined)!;
    expect(snapshot.usageRatio).toBeGreaterThanOrEqual(0.01);
    await turn(harness, 'small', textReply('ok', { usage: { promptTokens: 50, completionTokens: 1 } }));
    await harness.settle();
    expect(compacted).toHaveLength(0);
    expect(harness.requests()).toHaveLength(2);
    expect(dividers(await harness.history())).toHaveLength(0);
  });
});

describe('failures', () => {
  it('a failing summary call is logged, writes nothing and leaves the turn alone', async () => {
    harness = await startSummaryHarness();
    const replies = harness.booted.capture('outbound:message');
    await turn(harness, 'one', textReply('answer one', high), {
      type: 'error',
      status: 500,
      message: 'summary server down',
    });
    expect(replies.map((reply) => reply.content)).toEqual(['answer one']);
    expect(dividers(await harness.history())).toHaveLength(0);
    expect(
      harness.booted.logs.some((record) => record.level === 'warn' && record.message.startsWith('compaction failed')),
    ).toBe(true);
    // The next turn end tries again.
    await turn(harness, 'two', textReply('answer two', high), summaryReply('recovered'));
    expect(dividers(await harness.history())).toHaveLength(1);
  });

  it('an empty answer to the request sharing the conversation prompt falls back to a transcript request', async () => {
    harness = await startSummaryHarness();
    await turn(harness, 'one', textReply('answer', high), summaryReply(''), summaryReply('from the transcript'));
    const [, , transcriptCall] = harness.requests().map((_request, index) => harness!.contents(index));
    expect(transcriptCall![0]).toContain('你负责压缩一段对话的历史');
    expect(transcriptCall![1]).toContain('one');
    const [divider] = dividers(await harness.history());
    expect(divider!.metadata?.[WellKnownMetadataKeys.Summary]).toBe('from the transcript');
    expect(
      harness.booted.logs.some((record) => record.level === 'warn' && record.message.includes('came back empty')),
    ).toBe(true);
  });

  it('an empty summary is a failure: no divider with an empty summary is written', async () => {
    harness = await startSummaryHarness();
    // Empty from the request sharing the conversation's prompt, then from the transcript request.
    await turn(harness, 'one', textReply('answer', high), summaryReply('   '), summaryReply(''));
    expect(harness.requests()).toHaveLength(3);
    expect(dividers(await harness.history())).toHaveLength(0);
    expect(harness.booted.logs.some((record) => record.fields?.code === 'AALIS_SUMMARY_EMPTY')).toBe(true);
  });
});

describe('/compact', () => {
  it('compacts the current session now and replies with the result', async () => {
    harness = await startSummaryHarness();
    await turn(harness, 'one', textReply('a', low));
    await turn(harness, 'two', textReply('b', low));
    harness.server.enqueue(summaryReply('manual summary'));
    expect(await harness.command('/compact')).toEqual(['已压缩 4 条消息，摘要 14 字。']);
    const [divider] = dividers(await harness.history());
    expect(divider!.metadata?.[WellKnownMetadataKeys.Summary]).toBe('manual summary');
    expect(divider!.metadata?.[WellKnownMetadataKeys.TurnId]).toBeUndefined();
    expect(await harness.command('/compact')).toEqual(['没有可压缩的消息。']);
    await turn(harness, 'three', textReply('c', low));
    harness.server.enqueue({ type: 'error', status: 400, message: 'bad summary request' });
    const [failed] = await harness.command('/compact');
    expect(failed).toMatch(/^压缩失败：/);
  });
});
