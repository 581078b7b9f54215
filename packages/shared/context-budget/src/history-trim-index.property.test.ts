import type { Message } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freezeMessage, HistoryTrimIndex } from './history-trim-index.js';
import { lookupGroup, numberedTexts } from './test-fixtures.case.js';
import { type TrimOptions, trimMessages } from './trim-messages.js';

// A conversation grows call after call; each call is trimmed with the conversation's index and from scratch, and
// the results must be identical (same message objects, same figures), whatever happened to the history between
// calls: appends (with incomplete groups and orphan results, results arriving late), edited copies, unfrozen copies
// (which could change in place, so the index must decline them), a window that moved on.

type Piece =
  | { kind: 'user' | 'assistant' | 'marker'; size: number }
  | { kind: 'group'; results: number[]; missing: boolean; reasoning: number }
  | { kind: 'orphan'; size: number }
  /** The result of an earlier call that was missing it (or an orphan when none is). */
  | { kind: 'late'; size: number };

type Change =
  | { kind: 'append'; pieces: Piece[] }
  | { kind: 'edit'; at: number; size: number }
  | { kind: 'copy'; at: number; frozen: boolean }
  | { kind: 'editCall'; at: number }
  | { kind: 'shift'; count: number };

const size = (max: number) => fc.integer({ min: 0, max });
const piece: fc.Arbitrary<Piece> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constantFrom('user' as const, 'assistant' as const), size: size(700) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('marker' as const), size: size(100) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('group' as const),
      results: fc.array(size(2500), { minLength: 1, maxLength: 3 }),
      missing: fc.integer({ min: 0, max: 9 }).map((value) => value < 2),
      reasoning: fc.oneof(fc.constant(0), size(800)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan' as const), size: size(300) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('late' as const), size: size(300) }) },
);
const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('append' as const), pieces: fc.array(piece, { maxLength: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), size: size(900) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), frozen: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('editCall' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('shift' as const), count: fc.integer({ min: 1, max: 6 }) }) },
);

const missingIds: string[] = [];
const { text, id } = numberedTexts();

function build(item: Piece): Message[] {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return [{ role: item.kind, content: text(item.size) }];
    case 'marker':
      return [{ role: 'system', content: text(item.size), kind: 'event-marker' }];
    case 'orphan':
      return [{ role: 'tool', content: text(item.size), toolCallId: id('gone') }];
    case 'late':
      return [{ role: 'tool', content: text(item.size), toolCallId: missingIds.shift() ?? id('gone') }];
    case 'group': {
      const ids = item.results.map(() => id('call'));
      const { call, results } = lookupGroup(
        ids,
        item.results.map((size) => text(size)),
        item.reasoning > 0 ? text(item.reasoning) : undefined,
      );
      if (item.missing) missingIds.push(ids[0]!);
      return [call, ...(item.missing ? results.slice(1) : results)];
    }
  }
}

const edited = (message: Message, changes: Partial<Message>): Message => freezeMessage({ ...message, ...changes });

function apply(history: Message[], step: Change): Message[] {
  const at = (position: number) => position % Math.max(1, history.length);
  switch (step.kind) {
    case 'append':
      return [...history, ...step.pieces.flatMap(build).map(freezeMessage)];
    case 'shift':
      return history.slice(step.count);
    case 'edit':
      return history.map((message, index) =>
        index === at(step.at) ? edited(message, { content: text(step.size) }) : message,
      );
    case 'editCall': {
      const target = history.findIndex((message, index) => index >= at(step.at) && message.toolCalls);
      return history.map((message, index) =>
        index === target
          ? edited(message, {
              toolCalls: message.toolCalls!.map((call, position) =>
                position === 0 ? { ...call, function: { ...call.function, arguments: `{"q":"${text(40)}"}` } } : call,
              ),
            })
          : message,
      );
    }
    case 'copy':
      return history.map((message, index) =>
        index === at(step.at) ? (step.frozen ? freezeMessage({ ...message }) : { ...message }) : message,
      );
  }
}

describe('HistoryTrimIndex', () => {
  it('gives exactly the trim a from-scratch computation gives, call after call', () => {
    fc.assert(
      fc.property(
        fc.array(change, { minLength: 1, maxLength: 25 }),
        fc.array(piece, { maxLength: 5 }),
        fc.integer({ min: 2_000, max: 12_000 }),
        fc.boolean(),
        (changes, turnPieces, contextWindow, headBlock) => {
          const index = new HistoryTrimIndex();
          const system: Message = { role: 'system', content: text(300) };
          const head: Message[] = headBlock ? [{ role: 'system', content: text(900) }] : [];
          let history: Message[] = [];
          for (const step of changes) {
            history = apply(history, step);
            const turn: Message[] = [{ role: 'user', content: text(200) }, ...turnPieces.flatMap(build)];
            const messages = [system, ...head, ...history, ...turn];
            const options: TrimOptions = {
              messages,
              segments: { headEnd: 1 + head.length, historyEnd: 1 + head.length + history.length },
              inputs: [1 + head.length + history.length],
              contextWindow,
              maxOutputTokens: 500,
              memoryTokenBudget: 300,
            };
            const scratch = trimMessages(options);
            const indexed = trimMessages({ ...options, historyIndex: index });
            expect(indexed).toEqual(scratch);
            // The same objects are sent, not copies that happen to be equal.
            indexed.messages.forEach((message, position) => {
              if (messages.includes(scratch.messages[position]!)) expect(message).toBe(scratch.messages[position]);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
    // Hundreds of conversations: seconds on a quiet machine, far longer on a loaded one.
  }, 120_000);

  it('indexes only what was added while the history only grows', () => {
    const index = new HistoryTrimIndex();
    const system: Message = { role: 'system', content: 'system' };
    const history: Message[] = [];
    for (let turn = 0; turn < 50; turn++) {
      history.push(
        ...[
          ...build({ kind: 'user', size: 400 }),
          ...build({ kind: 'group', results: [300], missing: false, reasoning: 0 }),
          ...build({ kind: 'assistant', size: 400 }),
        ].map((message) => freezeMessage(message)),
      );
      const messages = [system, ...history, { role: 'user' as const, content: 'now' }];
      const options: TrimOptions = {
        messages,
        segments: { headEnd: 1, historyEnd: 1 + history.length },
        contextWindow: 4_000,
        maxOutputTokens: 500,
      };
      expect(trimMessages({ ...options, historyIndex: index })).toEqual(trimMessages(options));
    }
    // Built once, then four messages per call: never rebuilt.
    expect(index.indexedMessages).toBe(history.length);
  });

  it('declines a history with a message that is not frozen (it could change in place)', () => {
    const index = new HistoryTrimIndex();
    const history = [
      freezeMessage({ role: 'user', content: 'a' } as Message),
      { role: 'assistant', content: 'b' } as Message,
    ];
    const messages = [
      { role: 'system', content: 's' } as Message,
      ...history,
      { role: 'user', content: 'now' } as Message,
    ];
    const options: TrimOptions = {
      messages,
      segments: { headEnd: 1, historyEnd: 3 },
      contextWindow: 4_000,
      maxOutputTokens: 500,
    };
    expect(trimMessages({ ...options, historyIndex: index })).toEqual(trimMessages(options));
    expect(index.indexedMessages).toBe(0);
    history[1]!.content = 'changed in place';
    expect(trimMessages({ ...options, historyIndex: index })).toEqual(trimMessages(options));
  });
});
