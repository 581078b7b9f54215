import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupToolCalls } from './group-tool-calls.js';
import type { Message } from './message.js';
import { validateProviderSequence } from './provider-sequence.js';

const user = (content: string): Message => ({ role: 'user', content });
const call = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, type: 'function', function: { name: `tool_${id}`, arguments: '{}' } })),
});
const result = (id: string): Message => ({ role: 'tool', content: `result ${id}`, toolCallId: id });

describe('groupToolCalls', () => {
  it('keeps a plain conversation as single-message units', () => {
    const input = [user('a'), { role: 'assistant', content: 'b' } as Message];
    const grouped = groupToolCalls(input);
    expect(grouped.messages).toEqual(input);
    expect(grouped.units).toEqual([
      { start: 0, end: 1, group: false },
      { start: 1, end: 2, group: false },
    ]);
  });

  it('moves messages that fall between a call and its results to after the group', () => {
    const input = [
      user('q'),
      call('c1'),
      user('joined'),
      result('c1'),
      { role: 'assistant', content: 'done' } as Message,
    ];
    const grouped = groupToolCalls(input);
    expect(grouped.messages.map((m) => m.content)).toEqual(['q', '', 'result c1', 'joined', 'done']);
    expect(grouped.units[1]).toEqual({ start: 1, end: 3, group: true });
    expect(grouped.sourceIndex).toEqual([0, 1, 3, 2, 4]);
  });

  it('orders parallel results by call order', () => {
    const grouped = groupToolCalls([call('a', 'b'), result('b'), result('a')]);
    expect(grouped.messages.map((m) => m.toolCallId ?? 'assistant')).toEqual(['assistant', 'a', 'b']);
    expect(grouped.units).toEqual([{ start: 0, end: 3, group: true }]);
  });

  it('leaves out an incomplete group with its results and reports it', () => {
    const grouped = groupToolCalls([user('q'), call('a', 'b'), result('a'), user('next')]);
    expect(grouped.messages.map((m) => m.content)).toEqual(['q', 'next']);
    expect(grouped.incomplete).toHaveLength(1);
    expect(grouped.incomplete[0]!.missing).toEqual(['b']);
    expect(grouped.incomplete[0]!.results.map((m) => m.toolCallId)).toEqual(['a']);
  });

  it('reports orphan tool results and leaves them out', () => {
    const grouped = groupToolCalls([result('x'), user('q')]);
    expect(grouped.messages.map((m) => m.content)).toEqual(['q']);
    expect(grouped.orphans).toEqual([{ index: 0, message: result('x') }]);
  });

  it('answers each call with the first result after it, a duplicate result becomes an orphan', () => {
    const grouped = groupToolCalls([call('a'), result('a'), result('a')]);
    expect(grouped.messages).toHaveLength(2);
    expect(grouped.orphans.map((o) => o.index)).toEqual([2]);
  });

  it('untangles interleaved groups', () => {
    const grouped = groupToolCalls([call('a'), call('b'), result('a'), result('b')]);
    expect(validateProviderSequence(grouped.messages)).toEqual([]);
    expect(grouped.units.map((u) => u.end - u.start)).toEqual([2, 2]);
  });

  it('does not mutate its input', () => {
    const input = [call('a'), user('u'), result('a')];
    const copy = structuredClone(input);
    groupToolCalls(input);
    expect(input).toEqual(copy);
  });

  it('property: never produces an invalid provider sequence and loses nothing unreported', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const arbitraryMessage = fc.oneof(
      fc.constantFrom(...['x', 'y']).map((c) => user(c)),
      fc.subarray(ids, { minLength: 1 }).map((chosen) => call(...chosen)),
      fc.constantFrom(...ids).map((id) => result(id)),
      fc.constant({ role: 'assistant', content: 'reply' } as Message),
    );
    fc.assert(
      fc.property(fc.array(arbitraryMessage, { maxLength: 30 }), (input) => {
        const grouped = groupToolCalls(input);
        expect(validateProviderSequence(grouped.messages)).toEqual([]);
        const accounted =
          grouped.messages.length +
          grouped.orphans.length +
          grouped.incomplete.reduce((sum, g) => sum + 1 + g.results.length, 0);
        expect(accounted).toBe(input.length);
        const covered = grouped.units.reduce((sum, u) => sum + (u.end - u.start), 0);
        expect(covered).toBe(grouped.messages.length);
      }),
      { numRuns: 500 },
    );
  });

  it('a list without calls or results is one unit per message, as the full grouping gives it', () => {
    const plain: fc.Arbitrary<Message> = fc.oneof(
      fc.record({
        role: fc.constantFrom('system', 'user', 'assistant') as fc.Arbitrary<Message['role']>,
        content: fc.string(),
      }),
      fc.constant<Message>({ role: 'system', content: 'marker', kind: 'event-marker' }),
      fc.constant<Message>({ role: 'assistant', content: 'no calls', toolCalls: [] }),
    );
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 12 }), (list) => {
        const grouped = groupToolCalls(list);
        expect(grouped).toEqual({
          messages: list,
          units: list.map((_, index) => ({ start: index, end: index + 1, group: false })),
          sourceIndex: list.map((_, index) => index),
          incomplete: [],
          orphans: [],
        });
        grouped.messages.forEach((message, index) => {
          expect(message).toBe(list[index]);
        });
        // The full grouping (a call and its result after them) gives the same for these messages.
        const full = groupToolCalls([...list, call('z'), result('z')]);
        expect(full.units.slice(0, list.length)).toEqual(grouped.units);
        expect(full.sourceIndex.slice(0, list.length)).toEqual(grouped.sourceIndex);
        expect(full.messages.slice(0, list.length)).toEqual(grouped.messages);
      }),
    );
  });
});
