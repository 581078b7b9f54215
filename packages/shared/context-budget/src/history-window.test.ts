import { type Message, validateProviderSequence } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHistoryWindow, historyWindowStart } from './history-window.js';
import { assistant, call, result, system, user } from './test-fixtures.case.js';

const conversation = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user : assistant)(`m${i}`));

describe('historyWindowStart', () => {
  it('historyLimit 0 sends the whole active history', () => {
    expect(historyWindowStart(10_000, 0)).toBe(0);
  });

  it('nothing is dropped while the active count is at or below the limit', () => {
    for (let count = 0; count <= 10; count++) expect(historyWindowStart(count, 10)).toBe(0);
  });

  it('above the limit the earliest half of the limit (rounded up) is dropped in one go', () => {
    expect(historyWindowStart(11, 10)).toBe(5);
    expect(historyWindowStart(12, 11)).toBe(6); // ⌈11 / 2⌉
  });

  it('after a drop the history accumulates to the full limit again before the next half goes', () => {
    const starts = Array.from({ length: 12 }, (_, i) => historyWindowStart(10 + i, 10));
    expect(starts).toEqual([0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15]);
  });

  it('rejects a negative or fractional count or limit', () => {
    expect(() => historyWindowStart(-1, 10)).toThrow(RangeError);
    expect(() => historyWindowStart(5, 2.5)).toThrow(RangeError);
  });

  it('property: the start depends only on the count and the limit, never moves back, moves in whole halves, and leaves between limit + 1 − ⌈limit / 2⌉ and limit messages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 5000 }), (limit, count) => {
        const start = historyWindowStart(count, limit);
        const half = Math.ceil(limit / 2);
        expect(start % half).toBe(0);
        expect(historyWindowStart(count + 1, limit)).toBeGreaterThanOrEqual(start);
        const sent = count - start;
        if (count <= limit) expect(sent).toBe(count);
        else {
          expect(sent).toBeGreaterThanOrEqual(limit + 1 - half);
          expect(sent).toBeLessThanOrEqual(limit);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('applyHistoryWindow', () => {
  it('control messages neither count nor are sent', () => {
    const marker = system('record', { kind: 'event-marker' });
    const divider = system('', { kind: 'compression-divider' });
    const messages = [user('a'), marker, assistant('b'), divider, user('c')];
    const window = applyHistoryWindow({ messages, limit: 3 });
    expect(window.activeCount).toBe(3);
    expect(window.start).toBe(0);
    expect(window.messages).toEqual([user('a'), assistant('b'), user('c')]);
  });

  it('a turn-stopped marker is a conversation message: it counts and is sent', () => {
    const stopped = system('[已停下] …', { kind: 'turn-stopped' });
    const window = applyHistoryWindow({ messages: [user('a'), stopped], limit: 0 });
    expect(window.activeCount).toBe(2);
    expect(window.messages).toContain(stopped);
  });

  it('drops the conversation messages before the start', () => {
    const messages = conversation(11);
    const window = applyHistoryWindow({ messages, limit: 10 });
    expect(window.start).toBe(5);
    expect(window.messages).toEqual(messages.slice(5));
  });

  it('a start inside a tool-call group drops the group head with its results; messages between call and results stay', () => {
    // Stored order: the joined input fell between the call and its results.
    const messages = [
      user('u0'),
      assistant('a1'),
      user('u2'),
      call(['x', 'y']),
      user('joined'),
      result('x', 'rx'),
      result('y', 'ry'),
      assistant('done'),
    ];
    const window = applyHistoryWindow({ messages, limit: 6 }); // 8 > 6: start 3 skips u0, a1, u2; the group stays
    expect(window.start).toBe(3);
    expect(window.messages.map((m) => m.content)).toEqual(['', 'rx', 'ry', 'joined', 'done']);
    const inside = [
      user('u0'),
      assistant('a1'),
      call(['x', 'y']),
      user('joined'),
      result('x', 'rx'),
      result('y', 'ry'),
      assistant('done'),
      user('u7'),
      assistant('a8'),
    ];
    const cut = applyHistoryWindow({ messages: inside, limit: 6 }); // 9 > 6: start 3 falls right after the call
    expect(cut.start).toBe(3);
    expect(cut.messages.map((m) => m.content)).toEqual(['joined', 'done', 'u7', 'a8']);
    expect(cut.orphans.map((orphan) => orphan.message.content)).toEqual(['rx', 'ry']);
    expect(cut.orphans.map((orphan) => orphan.index)).toEqual([4, 5]);
    expect(validateProviderSequence(cut.messages)).toEqual([]);
  });

  it('reads the same window from a slice the memory service cut at the start (countHistory + slice)', () => {
    const messages = conversation(17);
    const full = applyHistoryWindow({ messages, limit: 10 });
    const start = historyWindowStart(17, 10);
    const sliced = applyHistoryWindow({ messages: messages.slice(start), limit: 10, skipped: start });
    expect(sliced.messages).toEqual(full.messages);
    expect(sliced.start).toBe(full.start);
    expect(() => applyHistoryWindow({ messages: messages.slice(12), limit: 10, skipped: 12 })).toThrow(RangeError);
  });

  it('property: between two drops the sent history keeps its first message', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 200 }), (limit, length) => {
        const messages = conversation(length);
        const before = applyHistoryWindow({ messages: messages.slice(0, length - 1), limit });
        const after = applyHistoryWindow({ messages, limit });
        if (after.start === before.start)
          expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
        else expect(after.start - before.start).toBe(Math.ceil(limit / 2));
      }),
      { numRuns: 500 },
    );
  });
});
