import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { contextBudgetMessages, DEFAULT_CONTINUATION_PROMPT } from './messages.js';
import { assistant, call, charEstimator, result, system, text, user, windowFor } from './test-fixtures.case.js';
import { type TrimSettings, trimMessages } from './trim-messages.js';

// Budget 4000 tokens (one per char with charEstimator), unit 1000.
const trim = (messages: Message[], headEnd: number, historyEnd: number, extra: Partial<TrimSettings> = {}) =>
  trimMessages({
    messages,
    segments: { headEnd, historyEnd },
    ...windowFor(4000),
    estimator: charEstimator,
    ...extra,
  });

/** n history messages of `size` tokens, alternating user / assistant, each distinguishable. */
const historyOf = (n: number, size: number): Message[] =>
  Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user : assistant)(`${i}:${text(size - `${i}:`.length)}`));

const head = [system(text(100, 's')), system(text(100, 'h'))]; // 200 tokens; history available = 4000 − 200 − 1000

describe('trimMessages: budget and segments', () => {
  it('budget = context length × trimThresholdRatio − max output − 512 (floor 1024), unit = ⌈budget / 4⌉', () => {
    const outcome = trimMessages({
      messages: [system('s')],
      segments: { headEnd: 1, historyEnd: 1 },
      contextWindow: 10_000,
      maxOutputTokens: 1_000,
      trimThresholdRatio: 0.8,
    });
    expect(outcome.budget).toBe(10_000 * 0.8 - 1_000 - 512);
    expect(outcome.unit).toBe(Math.ceil(6488 / 4));
  });

  it('a system message at the start of history is history, not head: step 1 may drop it', () => {
    const failure = system(text(1200, 'f'), { kind: 'delivery-failure' });
    const messages = [...head, failure, ...historyOf(6, 300), user('now')];
    const outcome = trim(messages, 2, 9);
    expect(outcome.steps).toEqual([1]);
    expect(outcome.messages).not.toContain(failure);
    expect(outcome.messages.slice(0, 2)).toEqual(head);
  });

  it('rejects segments that are out of order or outside the list', () => {
    expect(() => trim([system('s')], 2, 1)).toThrow(RangeError);
    expect(() => trim([system('s')], 0, 2)).toThrow(RangeError);
  });
});

describe('trimMessages: step 1 (history dropped in whole units)', () => {
  it('step 1 runs every time: history over its available share is cut even when the whole request fits', () => {
    const messages = [...head, ...historyOf(10, 300), user(text(50))]; // 3250 tokens ≤ 4000, history 3000 > 2800
    const outcome = trim(messages, 2, 12);
    expect(outcome.untrimmedTokens).toBeLessThanOrEqual(outcome.budget);
    expect(outcome.steps).toEqual([1]);
    expect(outcome.droppedHistory).toBe(4); // k = ⌈200 / 1000⌉ = 1: 300, 600, 900, 1200 ≥ 1000
    expect(outcome.trimmed).toBe(true);
    expect(outcome.messages).toEqual([...head, ...messages.slice(6)]);
  });

  it('step 1: history within the available share (budget − head − unit) is untouched', () => {
    const messages = [...head, ...historyOf(9, 300), user(text(50))]; // history 2700 ≤ 2800
    const outcome = trim(messages, 2, 11);
    expect(outcome.steps).toEqual([]);
    expect(outcome.trimmed).toBe(false);
    expect(outcome.messages).toEqual(messages);
  });

  it('step 1: k = ⌈(history − available) ÷ unit⌉, dropped up to the message where the total first reaches k units', () => {
    const messages = [...head, ...historyOf(20, 300), user('q')]; // history 6000: k = ⌈3200 / 1000⌉ = 4
    const outcome = trim(messages, 2, 22);
    expect(outcome.droppedUnits).toBe(4);
    expect(outcome.droppedHistory).toBe(14); // 13 × 300 = 3900 < 4000 ≤ 14 × 300
  });

  it('step 1 ignores the size of this turn: the same head and history give the same cut', () => {
    const history = historyOf(10, 300);
    const small = trim([...head, ...history, user(text(50))], 2, 12);
    const large = trim([...head, ...history, user(text(900))], 2, 12);
    expect(small.droppedHistory).toBe(4);
    expect(large.droppedHistory).toBe(4);
    expect(large.messages.slice(0, -1)).toEqual(small.messages.slice(0, -1));
  });

  it('step 1: a cut inside a tool-call group drops the rest of the group with it', () => {
    const history = [
      user(text(300)),
      assistant(text(300)),
      user(text(300)),
      call(['a', 'b'], 49), // 2 × (1 + 49) = 100 tokens: the total reaches 1000 here
      result('a', text(200)),
      result('b', text(200)),
      ...historyOf(8, 300),
    ];
    const messages = [...head, ...history, user('q')]; // history 3800: k = 1
    const outcome = trim(messages, 2, 2 + history.length);
    expect(outcome.droppedHistory).toBe(6);
    expect(outcome.messages[2]).toBe(history[6]);
  });

  it('step 1: the cut point moves only when the history has grown by another unit', () => {
    const history: Message[] = [];
    let previous: { output: string; dropped: number } | undefined;
    for (let turn = 0; turn < 40; turn++) {
      history.push((turn % 2 === 0 ? user : assistant)(`${turn}:${text(146)}`)); // 150 tokens each
      const outcome = trim([...head, ...history, user('now')], 2, 2 + history.length);
      const historyTokens = history.length * 150;
      const expectedUnits = historyTokens > 2800 ? Math.ceil((historyTokens - 2800) / 1000) : 0;
      expect(outcome.droppedUnits).toBe(expectedUnits);
      const sent = JSON.stringify(outcome.messages.slice(0, -1));
      if (previous && previous.dropped === outcome.droppedHistory) {
        expect(sent.startsWith(previous.output.slice(0, -1))).toBe(true); // byte-identical prefix
      }
      previous = { output: sent, dropped: outcome.droppedHistory };
    }
  });
});

describe('trimMessages: steps 2–5 only when the estimate is over budget', () => {
  it('steps 2–5 do not run while the estimate is within budget', () => {
    const messages = [...head, user('q'), call(['a'], 10), result('a', text(3000))];
    const outcome = trim(messages, 2, 2);
    expect(outcome.steps).toEqual([]);
    expect(outcome.messages).toEqual(messages);
  });
});

describe('trimMessages: step 2 (this turn’s earlier tool calls)', () => {
  it('step 2 cuts this turn’s tool results over 1500 characters to their first 500, stopping once within budget', () => {
    const first = result('a', text(2000, 'A'));
    const second = result('b', text(2000, 'B'));
    const messages = [
      ...head,
      user(text(100)),
      call(['a'], 49),
      first,
      call(['b'], 49),
      second,
      call(['c'], 49),
      result('c', 'ok'),
    ];
    const outcome = trim(messages, 2, 2); // 4552 tokens
    expect(outcome.steps).toEqual([2]);
    expect(outcome.messages[4]).toEqual({ ...first, content: text(500, 'A') });
    expect(outcome.messages[6]).toBe(second); // within budget after the first one
    expect(outcome.tokens).toBeLessThanOrEqual(4000);
  });

  it('step 2 leaves the last tool-call group alone', () => {
    const lastCall = call(['b'], 9, { reasoningContent: text(800, 'r') });
    const last = result('b', text(3000, 'L'));
    const messages = [system('s'), user('q'), call(['a'], 9), result('a', text(1600)), lastCall, last];
    const outcome = trim(messages, 1, 1);
    expect(outcome.steps).toEqual([2]);
    expect(outcome.messages.slice(-2)).toEqual([lastCall, last]);
    expect(outcome.messages.at(-1)).toBe(last);
  });

  it('step 2 cuts reasoning over 200 characters oldest first: older entries keep 200, the newest keeps 400', () => {
    const messages = [
      system(text(100, 's')),
      system(text(1800, 'h')),
      user(text(100)),
      call(['a'], 49, { reasoningContent: text(1000, 'r') }),
      result('a', text(100, 'A')),
      call(['b'], 49, { reasoningContent: text(1000, 'R') }),
      result('b', text(100, 'B')),
      call(['c'], 49, { reasoningContent: text(1000, 'z') }),
      result('c', text(100, 'C')),
    ]; // 5550 tokens
    const outcome = trim(messages, 2, 2);
    expect(outcome.steps).toEqual([2]);
    const byId = (id: string) => outcome.messages.find((m) => m.toolCalls?.[0]?.id === id);
    expect(byId('b')?.reasoningContent).toBe(text(400, 'R'));
    expect(byId('c')?.reasoningContent).toBe(text(1000, 'z')); // the last group waits for step 5
  });

  it('step 2 compacts earlier tool-call groups into one assistant line per call: [历史工具调用] 工具名 → 结果前 100 字符', () => {
    const messages = [
      system(text(100, 's')),
      system(text(1800, 'h')),
      user(text(100)),
      call(['a'], 49, { reasoningContent: text(1000, 'r') }),
      result('a', `line one\nline two ${text(200, 'A')}`),
      call(['b'], 49, { reasoningContent: text(1000, 'R') }),
      result('b', text(100, 'B')),
      call(['c'], 49, { reasoningContent: text(1000, 'z') }),
      result('c', text(100, 'C')),
    ];
    const outcome = trim(messages, 2, 2);
    const compacted = `[历史工具调用] a → ${`line one line two ${text(200, 'A')}`.slice(0, 100)}`;
    expect(outcome.messages[3]).toEqual({ role: 'assistant', content: compacted });
    expect(outcome.messages[4]?.toolCalls?.[0]?.id).toBe('b');
    // The line given as a function is asked for once, when a group is compacted, and not for a list that fits.
    let asked = 0;
    const english = () => {
      asked++;
      return contextBudgetMessages.en['context.toolCallSummary'];
    };
    expect(trim(messages, 2, 2, { toolCallSummary: english }).messages[3]?.content).toMatch(
      /^\[Earlier tool call\] a → /,
    );
    expect(asked).toBe(1);
    trim(messages.slice(0, 5), 2, 2, { toolCallSummary: english });
    expect(asked).toBe(1);
  });

  it('step 2 compacts a group only when that saves tokens', () => {
    const messages = [
      system(text(100)),
      system(text(3900)),
      user('q'),
      call(['t']),
      result('t', 'ok'),
      call(['u']),
      result('u', 'ok'),
    ];
    const outcome = trim(messages, 2, 2);
    expect(outcome.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('step 2 never shortens or compacts history tool results: history is only dropped whole (step 3)', () => {
    const historyResult = result('h', text(1600, 'H'));
    const messages = [
      ...head,
      user(text(10)),
      call(['h'], 10),
      historyResult,
      user(text(100)),
      call(['a'], 50),
      result('a', text(2200)),
    ];
    const outcome = trim(messages, 2, 5);
    expect(outcome.steps).toEqual([2, 3]);
    expect(outcome.messages.some((m) => m.toolCallId === 'h' && m !== historyResult)).toBe(false);
  });
});

describe('trimMessages: step 3 (history dropped further in whole units)', () => {
  const history = historyOf(10, 300);
  const withInput = (size: number) => [...head, ...history, user(text(size, 'q'))];

  it('step 3 drops history from the cut point up to the next whole multiple of the unit', () => {
    const outcome = trim(withInput(2400), 2, 12); // after step 1 (cut 4): 200 + 1800 + 2400 = 4400
    expect(outcome.steps).toEqual([1, 2, 3]);
    expect(outcome.droppedUnits).toBe(2);
    expect(outcome.droppedHistory).toBe(7); // 6 × 300 = 1800 < 2000 ≤ 2100
  });

  it('step 3: the cut point does not move while this turn grows within the same unit', () => {
    const smaller = trim(withInput(2400), 2, 12);
    const larger = trim(withInput(2600), 2, 12);
    expect(larger.droppedHistory).toBe(smaller.droppedHistory);
    expect(larger.messages.slice(0, -1)).toEqual(smaller.messages.slice(0, -1));
  });

  it('step 3 drops the whole history when it has to', () => {
    const outcome = trim(withInput(3700), 2, 12);
    expect(outcome.droppedHistory).toBe(10);
    expect(outcome.messages).toEqual([...head, user(text(3700, 'q'))]);
  });
});

describe('trimMessages: step 4 (injected system messages over memoryTokenBudget)', () => {
  const blocks = () => [system(text(100, 's')), system(text(2000, 'A')), system(text(2000, 'B'))];

  it('step 4 shortens injected system messages in proportion when they exceed memoryTokenBudget, at least 200 characters each', () => {
    const messages = [...blocks(), system(text(500, 'V')), user(text(100))]; // 4700; injected 4500
    const outcome = trim(messages, 3, 3, { memoryTokenBudget: 1000 });
    expect(outcome.steps).toEqual([2, 3, 4]);
    const ratio = 1000 / 4500;
    expect(outcome.messages.map((m) => m.content.length)).toEqual([
      100,
      Math.floor(2000 * ratio),
      Math.floor(2000 * ratio),
      200,
      100,
    ]);
  });

  it('step 4 deletes injected system messages from the earliest on while they are still over the quota', () => {
    const messages = [...blocks(), system(text(500, 'V')), user(text(3500))];
    const outcome = trim(messages, 3, 3, { memoryTokenBudget: 100 });
    expect(outcome.messages.map((m) => m.content.slice(0, 1))).toEqual(['s', 'B', 'V', 'x']);
    expect(outcome.tokens).toBe(4000);
  });

  it('step 4 leaves the first system message, instruction blocks and the last message alone', () => {
    const instruction = system(`[宿主通知] ${text(2500, 'I')}`);
    const messages = [system(text(1000, 's')), system(text(1000, 'A')), instruction, system(text(600, 'Z'))];
    const outcome = trim(messages, 2, 2, { memoryTokenBudget: 100, inputs: [2] });
    expect(outcome.steps).toContain(4);
    expect(outcome.messages[0]).toBe(messages[0]);
    expect(outcome.messages).toContain(instruction);
    expect(outcome.messages.at(-1)).toBe(messages[3]);
  });

  it('step 4 leaves instruction blocks that are not inputs (the idle prompt) alone', () => {
    const idle = system(`(时间) ${text(2500, 'I')}`);
    const messages = [system(text(1000, 's')), system(text(1000, 'A')), idle, system(text(600, 'Z'))];
    const outcome = trim(messages, 2, 2, { memoryTokenBudget: 100, inputs: [], instructions: [2] });
    expect(outcome.steps).toContain(4);
    expect(outcome.messages).toContain(idle);
    // The other injected block is shortened (or deleted) as usual.
    const other = outcome.messages.find((message) => message.content.startsWith('A'));
    expect(other === undefined || other.content.length < 1000).toBe(true);
    // Not an input: with no input the continuation prompt goes at the end, not after the block.
    expect(() => trim(messages, 2, 2, { instructions: [9] })).toThrow(/instruction index 9/);
  });

  it('step 4 changes nothing while the injected messages are within memoryTokenBudget', () => {
    const messages = [...blocks(), user(text(100)), call(['a'], 0), result('a', text(3000, 'R'))];
    const outcome = trim(messages, 3, 3);
    expect(outcome.steps).toEqual([2, 3, 4, 5]);
    expect(outcome.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
  });
});

describe('trimMessages: step 5 (the last group, last resort)', () => {
  it('step 5 cuts the last group’s long results to 500 characters and its reasoning to 400', () => {
    const last = call(['a'], 50, { reasoningContent: text(1000, 'r') });
    const messages = [...head, user(text(100)), last, result('a', text(4000, 'R'))];
    const outcome = trim(messages, 2, 2);
    expect(outcome.steps).toEqual([2, 3, 4, 5]);
    expect(outcome.messages.at(-1)?.content).toBe(text(500, 'R'));
    expect(outcome.messages.at(-2)).toBe(last); // within budget after the result: reasoning kept
    const tighter = trim([...head, user(text(3000)), last, result('a', text(4000, 'R'))], 2, 2);
    expect(tighter.messages.at(-2)?.reasoningContent).toBe(text(400, 'r'));
  });

  it('after step 5 the request goes out even when it is still over budget (overBudget)', () => {
    const outcome = trim([...head, user(text(4500))], 2, 2);
    expect(outcome.steps).toEqual([2, 3, 4, 5]);
    expect(outcome.overBudget).toBe(true);
    expect(outcome.messages).toHaveLength(3);
  });
});

describe('trimMessages: never touched', () => {
  it('the first system message and this turn’s inputs (opening, joined, instruction blocks) are never changed', () => {
    const opening = user(text(1500, 'o'));
    const joined = user(text(1500, 'j'));
    const messages = [
      system(text(900, 's')),
      ...historyOf(6, 300),
      opening,
      call(['a'], 10),
      result('a', text(2000)),
      joined,
    ];
    const outcome = trim(messages, 1, 7, { memoryTokenBudget: 10 });
    expect(outcome.messages[0]).toBe(messages[0]);
    expect(outcome.messages).toContain(opening);
    expect(outcome.messages).toContain(joined);
  });

  it('the input list and its messages are never mutated', () => {
    const messages = [
      ...head,
      ...historyOf(10, 300),
      system(text(900, 'v')),
      user(text(800)),
      call(['a'], 10, { reasoningContent: text(900) }),
      result('a', text(3000)),
      call(['b'], 10, { reasoningContent: text(900) }),
      result('b', text(3000)),
    ];
    const copy = structuredClone(messages);
    trim(messages, 2, 12, { memoryTokenBudget: 10 });
    expect(messages).toEqual(copy);
  });

  it('control messages (CONTROL_KINDS) are never sent', () => {
    const marker = system('turn record', { kind: 'event-marker' });
    const outcome = trim([system('s'), user('a'), marker, assistant('b'), user('c')], 1, 4);
    expect(outcome.messages).not.toContain(marker);
  });
});

describe('trimMessages: continuation prompt (压缩后延续提示)', () => {
  // Step 1 and 3 drop all ten history messages; the volatile block and the input still exceed the budget.
  const scenario = (extraTurn: Message[] = []) => [
    ...head,
    ...historyOf(10, 300),
    system(text(100, 'v')),
    user(text(3750, 'q')),
    ...extraTurn,
  ];

  it('after a trim through step 4 that removed 6 or more messages, the prompt follows the last input of this turn', () => {
    const outcome = trim(scenario([call(['a'], 10), result('a', 'ok')]), 2, 12);
    expect(outcome.steps).toContain(4);
    expect(outcome.continuationInserted).toBe(true);
    const index = outcome.messages.findIndex((m) => m.content === DEFAULT_CONTINUATION_PROMPT);
    expect(outcome.messages[index - 1]?.content).toBe(text(3750, 'q'));
    expect(outcome.messages[index]).toEqual({ role: 'system', content: DEFAULT_CONTINUATION_PROMPT });
    expect(outcome.messages[index + 1]?.toolCalls?.[0]?.id).toBe('a');
  });

  it('the caller may mark the inserted prompt with metadata (its injector)', () => {
    const outcome = trim(scenario(), 2, 12, { continuationMetadata: { injector: 'continuation-prompt' } });
    expect(outcome.messages.at(-1)).toEqual({
      role: 'system',
      content: DEFAULT_CONTINUATION_PROMPT,
      metadata: { injector: 'continuation-prompt' },
    });
  });

  it('no continuation prompt when fewer than 6 messages were removed', () => {
    const messages = [...head, ...historyOf(5, 300), system(text(100, 'v')), user(text(3750, 'q'))];
    const outcome = trim(messages, 2, 7);
    expect(outcome.steps).toContain(4);
    expect(outcome.removed).toBe(5);
    expect(outcome.continuationInserted).toBe(false);
  });

  it('no continuation prompt when step 4 did not run', () => {
    const outcome = trim([...head, ...historyOf(10, 300), user(text(3600))], 2, 12);
    expect(outcome.steps).toEqual([1, 2, 3]);
    expect(outcome.removed).toBe(10);
    expect(outcome.continuationInserted).toBe(false);
  });

  it('a snapshot without inputs gets the prompt at the end', () => {
    const messages = [system(text(100, 's')), system(text(3900, 'h')), ...historyOf(10, 300)];
    const outcome = trim(messages, 2, 12, { memoryTokenBudget: 3000, inputs: [] });
    expect(outcome.continuationInserted).toBe(true);
    expect(outcome.messages.at(-1)?.content).toBe(DEFAULT_CONTINUATION_PROMPT);
    expect(outcome.messages.at(-2)).toBe(messages.at(-1)); // the last message is never dropped
  });

  it('the prompt is the document’s text word for word, and the caller may pass the English one', () => {
    expect(DEFAULT_CONTINUATION_PROMPT).toBe(
      '[系统提示] 由于上下文长度限制,部分历史消息已被压缩或移除。请基于当前可见的上下文和最新用户请求继续完成任务,不要因为看不到之前的细节而停止工作。如果你之前有正在执行的多步骤任务或计划,请查看对话摘要和 todo-list 工具确认当前进度,然后继续未完成的步骤。',
    );
    const english = contextBudgetMessages.en['context.continuationPrompt'];
    const outcome = trim(scenario(), 2, 12, { continuationPrompt: english });
    expect(outcome.messages.at(-1)?.content).toBe(english);
  });

  it('a prompt given as a function is asked for (and estimated) only when it is inserted', () => {
    const english = contextBudgetMessages.en['context.continuationPrompt'];
    const asked = { prompt: 0, estimated: 0 };
    const prompt = () => {
      asked.prompt++;
      return english;
    };
    const estimator = (message: Message) => {
      if (message.content === english) asked.estimated++;
      return charEstimator(message);
    };
    const inserted = trim(scenario(), 2, 12, { continuationPrompt: prompt, estimator });
    expect(inserted.continuationInserted).toBe(true);
    expect(inserted.messages.at(-1)?.content).toBe(english);
    expect(asked).toEqual({ prompt: 1, estimated: 1 });
    // Steps 1–3 only, then a list that fits: neither asked for nor estimated.
    trim([...head, ...historyOf(10, 300), user(text(3600))], 2, 12, { continuationPrompt: prompt, estimator });
    trim([...head, ...historyOf(2, 300), user('q')], 2, 4, { continuationPrompt: prompt, estimator });
    expect(asked).toEqual({ prompt: 1, estimated: 1 });
  });
});

describe('trimMessages: what the engine reports', () => {
  it('untrimmedHistory is the history plus this turn’s tool calls and results, before trimming', () => {
    const messages = [...head, ...historyOf(10, 300), user(text(100)), call(['a'], 9), result('a', text(40))];
    const outcome = trim(messages, 2, 12);
    expect(outcome.untrimmedHistory).toBe(3000 + 10 + 40);
    expect(outcome.untrimmedTokens).toBe(200 + 3000 + 100 + 10 + 40);
  });

  it('trimmed is true when the untrimmed estimate exceeds the budget even if history fits its share', () => {
    const outcome = trim([...head, user(text(100)), call(['a'], 0), result('a', text(4000))], 2, 2);
    expect(outcome.trimmed).toBe(true);
    expect(outcome.droppedHistory).toBe(0);
  });

  it('fixedTokens (tool definitions) count with the head', () => {
    const messages = [...head, ...historyOf(9, 300), user('q')]; // history 2700: fits 2800, not 2700 − 500
    expect(trim(messages, 2, 11).droppedHistory).toBe(0);
    expect(trim(messages, 2, 11, { fixedTokens: 500 }).droppedHistory).toBe(4);
  });

  it('fixedTokens are in the estimates (untrimmed and sent) and are checked', () => {
    const messages = [...head, user('q')];
    const outcome = trim(messages, 2, 2, { fixedTokens: 700 });
    expect(outcome.tokens).toBe(200 + 1 + 700);
    expect(outcome.untrimmedTokens).toBe(200 + 1 + 700);
    expect(() => trim(messages, 2, 2, { fixedTokens: -1 })).toThrow(/fixedTokens/);
  });
});
