// The trim index over a MessageLog segment (what the agent passes: head, history segment, this turn, the list never
// built) gives exactly the from-scratch trim of the same list, call after call, whatever happened between calls:
// appends to the log, segments that end before the log does with a tail after them (this turn's inputs left out),
// whole-log snapshots between turns, rewrites (a new log: edited, unfrozen, dropped messages), and calls given as one
// array with the same index in between. And while the log only grows, a call reads only what is new.
import type { Message } from '@aalis/schema-message';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freezeMessage, HistoryTrimIndex } from './history-trim-index.js';
import { type HistorySegment, MessageLog } from './message-log.js';
import { type TrimSettings, trimMessages } from './trim-messages.js';

afterEach(() => {
  vi.restoreAllMocks();
});

let next = 0;
const text = (length: number) => `#${next++}:${'word 字 '.repeat(Math.ceil(length / 7))}`.slice(0, Math.max(4, length));

type Piece =
  | { kind: 'user' | 'assistant' | 'marker' | 'orphan'; size: number }
  | { kind: 'group'; results: number[]; missing: number };

/** Conversation pieces: plain messages, complete and incomplete tool groups, orphan results, control markers. */
const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constantFrom('user', 'assistant'), size: fc.nat(700) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('marker'), size: fc.nat(100) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('group'),
      results: fc.array(fc.nat(2500), { minLength: 1, maxLength: 3 }),
      missing: fc.integer({ min: 0, max: 9 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan'), size: fc.nat(300) }) },
);

function build(item: Piece): Message[] {
  if (item.kind === 'group') return group(item);
  if (item.kind === 'user' || item.kind === 'assistant') return [{ role: item.kind, content: text(item.size) }];
  if (item.kind === 'marker') return [{ role: 'system', content: text(item.size), kind: 'event-marker' }];
  return [{ role: 'tool', content: text(item.size), toolCallId: `gone_${next++}` }];
}

function group(item: { results: number[]; missing: number }): Message[] {
  const ids = item.results.map(() => `call_${next++}`);
  const call: Message = {
    role: 'assistant',
    content: '',
    toolCalls: ids.map((id) => ({ id, type: 'function', function: { name: 'lookup', arguments: `{"q":"${id}"}` } })),
  };
  const results = item.results.map(
    (size, at): Message => ({ role: 'tool', content: text(size), toolCallId: ids[at]! }),
  );
  // An incomplete group (a result still missing) now and then: the index must decline it.
  return [call, ...(item.missing < 2 ? results.slice(1) : results)];
}

const step = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('append'), pieces: fc.array(piece, { maxLength: 8 }) }) },
  // A rewrite: a new log holding the history changed (an edited copy, an unfrozen copy, the first messages dropped).
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rewrite'),
      at: fc.nat(),
      how: fc.constantFrom('edit', 'unfrozen', 'drop'),
    }),
  },
);

/** The segment the call reads: the whole log, or its first messages and a tail (some of the rest, then new ones). */
interface Shape {
  whole: boolean;
  cut: number;
  keepEvery: number;
  extra: Piece[];
  asArray: boolean;
}
const shape: fc.Arbitrary<Shape> = fc.record({
  whole: fc.boolean(),
  cut: fc.nat(),
  keepEvery: fc.integer({ min: 1, max: 3 }),
  extra: fc.array(piece, { maxLength: 2 }),
  asArray: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
});

function segmentOf(log: MessageLog, { whole, cut, keepEvery, extra }: Shape): HistorySegment {
  if (whole) return log.segment();
  const at = cut % (log.length + 1);
  const tail: Message[] = [];
  for (let index = at; index < log.length; index++) if ((index - at) % keepEvery === 1) tail.push(log.at(index)!);
  tail.push(...extra.flatMap(build).map(freezeMessage));
  return log.segment(at, tail);
}

describe('HistoryTrimIndex over a MessageLog segment', () => {
  it('gives exactly the from-scratch trim, call after call, through appends, tails, snapshots and rewrites', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, shape), { minLength: 1, maxLength: 20 }),
        fc.array(piece, { maxLength: 4 }),
        fc.integer({ min: 2_000, max: 12_000 }),
        (steps, turnPieces, contextWindow) => {
          const index = new HistoryTrimIndex();
          const head: Message[] = [{ role: 'system', content: text(300) }];
          let log = new MessageLog();
          let history: Message[] = [];
          for (const [change, form] of steps) {
            if (change.kind === 'append') {
              const added = change.pieces.flatMap(build).map(freezeMessage);
              log.append(added);
              history.push(...added);
            } else {
              const at = change.at % Math.max(1, history.length);
              if (change.how === 'drop') history = history.slice(at);
              else
                history = history.map((message, position) =>
                  position !== at
                    ? message
                    : change.how === 'edit'
                      ? freezeMessage({ ...message, content: text(500) })
                      : { ...message },
                );
              log = new MessageLog();
              log.append(history);
            }
            const segment = segmentOf(log, form);
            const turn: Message[] = [{ role: 'user', content: text(200) }, ...turnPieces.flatMap(build)];
            const messages = [...head, ...segment.toArray(), ...turn];
            const historyEnd = head.length + segment.length;
            const settings: TrimSettings = {
              inputs: [historyEnd],
              contextWindow,
              maxOutputTokens: 500,
              memoryTokenBudget: 300,
            };
            const scratch = trimMessages({ messages, segments: { headEnd: head.length, historyEnd }, ...settings });
            const indexed = form.asArray
              ? trimMessages({
                  messages,
                  segments: { headEnd: head.length, historyEnd },
                  ...settings,
                  historyIndex: index,
                })
              : trimMessages({ parts: { head, history: segment, turn }, ...settings, historyIndex: index });
            expect(indexed).toEqual(scratch);
            // The same objects are sent, not equal copies.
            indexed.messages.forEach((message, position) => {
              if (messages.includes(scratch.messages[position]!)) expect(message).toBe(scratch.messages[position]);
            });
            // Without an index, parts trim as the list does.
            expect(trimMessages({ parts: { head, history: segment, turn }, ...settings })).toEqual(scratch);
          }
        },
      ),
      { numRuns: 200 },
    );
    // Hundreds of conversations: seconds on a quiet machine, far longer on a loaded one.
  }, 120_000);

  it('reads only the messages added since the previous call while the log only grows', () => {
    const index = new HistoryTrimIndex();
    const log = new MessageLog();
    const head: Message[] = [{ role: 'system', content: 'system' }];
    const settings: TrimSettings = { contextWindow: 4_000, maxOutputTokens: 500 };
    log.append(
      Array.from({ length: 5_000 }, (_, at) =>
        freezeMessage({ role: at % 2 ? 'assistant' : 'user', content: text(40) } as Message),
      ),
    );
    const turnOf = () => [{ role: 'user' as const, content: 'now' }];
    const first = log.segment();
    trimMessages({ parts: { head, history: first, turn: turnOf() }, ...settings, historyIndex: index });
    const reads = vi.spyOn(MessageLog.prototype, 'at');
    for (let call = 0; call < 20; call++) {
      const added = [
        freezeMessage({ role: 'user', content: text(300) } as Message),
        freezeMessage({ role: 'assistant', content: text(300) } as Message),
      ];
      log.append(added);
      reads.mockClear();
      const segment = log.segment();
      const parts = { head, history: segment, turn: turnOf() };
      const indexed = trimMessages({ parts, ...settings, historyIndex: index });
      // The two new messages, not the 5 000 before them.
      expect(reads.mock.calls.length).toBe(2);
      const messages = [...head, ...segment.toArray(), ...parts.turn];
      expect(indexed).toEqual(
        trimMessages({ messages, segments: { headEnd: 1, historyEnd: 1 + segment.length }, ...settings }),
      );
    }
    expect(index.indexedMessages).toBe(log.length);
    expect(index.rebuilds).toBe(0);
  });

  it('a new log is checked from its start: a rewritten history is never taken for the old one', () => {
    const index = new HistoryTrimIndex();
    const head: Message[] = [{ role: 'system', content: 'system' }];
    const settings: TrimSettings = { contextWindow: 3_000, maxOutputTokens: 500 };
    const messages = Array.from({ length: 400 }, (_, at) =>
      freezeMessage({ role: at % 2 ? 'assistant' : 'user', content: text(60) } as Message),
    );
    const log = new MessageLog();
    log.append(messages);
    trimMessages({ parts: { head, history: log.segment(), turn: [] }, ...settings, historyIndex: index });
    // The same length, one message edited (a new object), in a new log: the trim must see the edit.
    const rewritten = new MessageLog();
    rewritten.append(
      messages.map((message, at) => (at === 399 ? freezeMessage({ ...message, content: 'edited' }) : message)),
    );
    const turn = [{ role: 'user' as const, content: 'now' }];
    const result = trimMessages({
      parts: { head, history: rewritten.segment(), turn },
      ...settings,
      historyIndex: index,
    });
    const list = [...head, ...rewritten.segment().toArray(), ...turn];
    expect(result).toEqual(trimMessages({ messages: list, segments: { headEnd: 1, historyEnd: 401 }, ...settings }));
    expect(result.messages.some((message) => message.content === 'edited')).toBe(true);
  });
});
