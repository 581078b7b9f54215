import { describe, expect, it } from 'vitest';
import { slidingWindow } from './sliding-window.js';

interface Item {
  role: string;
  id: string;
  tokens: number;
}
const item = (role: string, id: string, tokens = 10): Item => ({ role, id, tokens });
const ids = (messages: Item[]) => messages.map((message) => message.id);
const count = (message: Item) => message.tokens;

const history = [
  item('system', 's'),
  item('user', 'u1'),
  item('assistant', 'a1'),
  item('user', 'u2'),
  item('assistant', 'c2'),
  item('tool', 't2'),
  item('assistant', 'a2'),
  item('user', 'u3'),
];

describe('slidingWindow', () => {
  it('keeps everything that fits', () => {
    expect(ids(slidingWindow(history, 1000, count))).toEqual(ids(history));
  });

  it('keeps the system messages and the latest messages that fit, starting at a user message', () => {
    // s + u3 = 20; a2, t2, c2 fit (50) and u2 (60) does; a1 (70) would not fit in 65.
    expect(ids(slidingWindow(history, 65, count))).toEqual(['s', 'u2', 'c2', 't2', 'a2', 'u3']);
    // With room up to the tool result only, the window may not start inside the tool round: it starts at u3.
    expect(ids(slidingWindow(history, 45, count))).toEqual(['s', 'u3']);
  });

  it('always sends the current turn whole, over budget or not', () => {
    const inTurn = [...history, item('assistant', 'c3', 500), item('tool', 't3', 500)];
    expect(ids(slidingWindow(inTurn, 100, count))).toEqual(['s', 'u3', 'c3', 't3']);
  });

  it('keeps messages without any user message as they are', () => {
    const noUser = [item('system', 's'), item('assistant', 'a')];
    expect(ids(slidingWindow(noUser, 5, count))).toEqual(['s', 'a']);
  });
});
