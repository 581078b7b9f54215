// `trimMessages`' shortcut for a list that already fits (the list as grouped, no cut computed) gives exactly what the
// full computation gives — the same message objects, estimates, steps, cut and usage figures — on random conversations
// whose estimate lies just under, at and just over the budget, given as one array or as parts, with the conversation's
// index or without, with the default estimator or a custom one.
import type { Message } from '@aalis/schema-message';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freezeMessage, HistoryTrimIndex } from './history-trim-index.js';
import { HistoryView } from './history-view.js';
import { MessageLog } from './message-log.js';
import { charEstimator, lookupGroup, numberedTexts } from './test-fixtures.case.js';
import { type TrimOptions, type TrimResult, trimMessages, trimMessagesFully } from './trim-messages.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const { text, id } = numberedTexts();

type Piece =
  | { kind: 'user' | 'assistant' | 'marker' | 'orphan' | 'injected'; size: number }
  | { kind: 'group'; results: number[]; missing: number; reasoning: number };

const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constantFrom('user', 'assistant'), size: fc.nat(700) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('marker', 'injected'), size: fc.nat(300) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('group'),
      results: fc.array(fc.nat(2500), { minLength: 1, maxLength: 3 }),
      missing: fc.integer({ min: 0, max: 9 }),
      reasoning: fc.oneof(fc.constant(0), fc.nat(800)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan'), size: fc.nat(300) }) },
);

function build(item: Piece): Message[] {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return [{ role: item.kind, content: text(item.size) }];
    case 'marker':
      return [{ role: 'system', content: text(item.size), kind: 'event-marker' }];
    case 'injected':
      return [{ role: 'system', content: text(item.size) }];
    case 'orphan':
      return [{ role: 'tool', content: text(item.size), toolCallId: id('gone') }];
    case 'group': {
      const ids = item.results.map(() => id('call'));
      const { call, results } = lookupGroup(
        ids,
        item.results.map((size) => text(size)),
        item.reasoning > 0 ? text(item.reasoning) : undefined,
      );
      // An incomplete group now and then: left out, and the index declines a history holding one.
      return [call, ...(item.missing < 2 ? results.slice(1) : results)];
    }
  }
}

/** What must be the same: every figure, and the very objects sent (not equal copies) where they are the input's. */
function expectSame(shortcut: TrimResult, full: TrimResult, input: readonly Message[]): void {
  expect(shortcut).toEqual(full);
  for (let position = 0; position < full.messages.length; position++) {
    if (input.includes(full.messages[position]!)) expect(shortcut.messages[position]).toBe(full.messages[position]);
  }
}

const MAX_OUTPUT = 500;
/** The context window whose budget is `budget` (trimBudget: window − max output − 512, at least 1024). */
const windowOf = (budget: number) => budget + MAX_OUTPUT + 512;

describe('trimMessages shortcut for a list that fits', () => {
  it('gives exactly the full computation, for estimates just under, at and just over the budget', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.array(piece, { maxLength: 4 }),
        fc.record({
          headBlock: fc.boolean(),
          fixedTokens: fc.oneof(fc.constant(0), fc.nat(400)),
          offset: fc.integer({ min: -40, max: 40 }),
          unit: fc.boolean(),
          custom: fc.integer({ min: 0, max: 4 }).map((value) => value === 0),
        }),
        (appends, turnPieces, { headBlock, fixedTokens, offset, unit, custom }) => {
          const head: Message[] = [{ role: 'system', content: text(300) }];
          if (headBlock) head.push({ role: 'system', content: text(600) });
          const log = new MessageLog();
          const indexes = { shortcut: new HistoryTrimIndex(), full: new HistoryTrimIndex() };
          for (const pieces of appends) {
            log.append(pieces.flatMap(build).map(freezeMessage));
            const segment = log.segment();
            const turn: Message[] = [{ role: 'user', content: text(200) }, ...turnPieces.flatMap(build)];
            const messages = [...head, ...segment.toArray(), ...turn];
            const historyEnd = head.length + segment.length;
            const base = {
              inputs: [historyEnd],
              fixedTokens,
              maxOutputTokens: MAX_OUTPUT,
              memoryTokenBudget: 300,
              ...(custom ? { estimator: charEstimator } : {}),
            };
            // Where this list's estimate lies: the budget is put just around it, or around the line over which
            // step 1 cuts history (head + history + one unit), so both conditions of the shortcut are crossed.
            const measured = trimMessagesFully({
              messages,
              segments: { headEnd: head.length, historyEnd },
              ...base,
              contextWindow: 1_000_000,
            });
            const headAndTurn = trimMessagesFully({
              messages: [...head, ...turn],
              segments: { headEnd: head.length, historyEnd: head.length },
              ...base,
              inputs: [head.length],
              contextWindow: 1_000_000,
            });
            const headTokens = trimMessagesFully({
              messages: head,
              segments: { headEnd: head.length, historyEnd: head.length },
              ...base,
              inputs: [],
              contextWindow: 1_000_000,
            }).untrimmedTokens;
            const turnTokens = headAndTurn.untrimmedTokens - headTokens;
            // Step 1 cuts once head + history exceed the budget less a quarter of it.
            const target = unit
              ? Math.ceil(((measured.untrimmedTokens - turnTokens) * 4) / 3) + offset
              : measured.untrimmedTokens + offset;
            const contextWindow = windowOf(Math.max(1_024, target));
            const forms: { options: TrimOptions }[] = [
              { options: { messages, segments: { headEnd: head.length, historyEnd }, ...base, contextWindow } },
              { options: { parts: { head, history: segment, turn }, ...base, contextWindow } },
            ];
            for (const { options } of forms) {
              const full = trimMessagesFully(options);
              expectSame(trimMessages(options), full, messages);
              // With the conversation's index (one each, so both grow it alike, call after call).
              expectSame(
                trimMessages({ ...options, historyIndex: indexes.shortcut }),
                trimMessagesFully({ ...options, historyIndex: indexes.full }),
                messages,
              );
              expect(full).toEqual(trimMessagesFully(forms[0]!.options));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    // Hundreds of conversations: seconds on a quiet machine, far longer on a loaded one.
  }, 120_000);

  it('a list that fits is not cut: no history entries are built, and a list over the budget still is', () => {
    const entries = vi.spyOn(HistoryView.prototype, 'entriesFrom');
    const log = new MessageLog();
    log.append(
      Array.from({ length: 40 }, (_, at) =>
        freezeMessage({ role: at % 2 ? 'assistant' : 'user', content: text(200) } as Message),
      ),
    );
    const index = new HistoryTrimIndex();
    const parts = { head: [{ role: 'system' as const, content: 'system' }], history: log.segment(), turn: [] };
    const fits = trimMessages({ parts, contextWindow: 128_000, maxOutputTokens: 1_000, historyIndex: index });
    expect(fits.steps).toEqual([]);
    expect(fits.messages).toHaveLength(41);
    expect(entries).not.toHaveBeenCalled();
    const cut = trimMessages({ parts, contextWindow: 3_000, maxOutputTokens: 1_000, historyIndex: index });
    expect(cut.steps).toContain(1);
    expect(entries).toHaveBeenCalled();
  });
});
