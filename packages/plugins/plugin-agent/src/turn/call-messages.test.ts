// What the trim protects is found by identity, not by object (call-messages.ts).
import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { assemble, locateSegments, protectMessage, type TurnParts } from './call-messages.js';

function parts(): { parts: TurnParts; input: Message; joined: Message; idle: Message } {
  const built: TurnParts = {
    turnId: 'turn-1',
    system: { role: 'system', content: 'system prompt' },
    head: [{ role: 'system', content: '[摘要] …' }],
    history: [
      { id: 'h1', role: 'user', content: 'old question', metadata: { turnId: 'turn-0', turnEntry: 'opened' } },
      { id: 'h2', role: 'assistant', content: 'old answer', metadata: { turnId: 'turn-0' } },
    ],
    turn: [{ role: 'system', content: '[当前环境] …' }],
    inputs: new Set(),
    instructions: new Set(),
  };
  const idle: Message = { role: 'system', content: '(time) say something' };
  const input: Message = { role: 'user', content: 'new question' };
  const joined: Message = { role: 'user', content: 'and another' };
  built.turn.push(idle, input, joined);
  protectMessage(built, idle, { instruction: true });
  protectMessage(built, input, { entry: 'opened' });
  protectMessage(built, joined, { entry: 'joined' });
  return { parts: built, input, joined, idle };
}

describe('protection by identity', () => {
  it('the assembled list marks inputs and instruction blocks; history of other turns is not an input', () => {
    const { parts: built } = parts();
    const call = assemble(built);
    expect(call.headEnd).toBe(2);
    expect(call.historyEnd).toBe(4);
    expect(call.inputIndices).toEqual([6, 7]);
    expect(call.instructionIndices).toEqual([5]);
  });

  it('spread copies and structured clones (as media normalisation makes) keep their protection', () => {
    const { parts: built } = parts();
    const original = assemble(built).messages;
    for (const copies of [original.map((message) => ({ ...message })), structuredClone(original)]) {
      const call = locateSegments(built, copies);
      expect(call.headEnd).toBe(2);
      expect(call.historyEnd).toBe(4);
      expect(call.inputIndices).toEqual([6, 7]);
      expect(call.instructionIndices).toEqual([5]);
    }
  });

  it('copies that keep their metadata are found even when a middleware inserts a message', () => {
    const { parts: built } = parts();
    const copies = assemble(built).messages.map((message) => ({ ...message }));
    copies.splice(5, 0, { role: 'system', content: '[media] described' });
    const call = locateSegments(built, copies);
    expect(call.inputIndices).toEqual([7, 8]);
    expect(call.instructionIndices).toEqual([6]);
  });

  it('copies rebuilt without metadata in a list of the same shape are found by position and role', () => {
    const { parts: built } = parts();
    const bare = assemble(built).messages.map(({ role, content }) => ({ role, content }));
    const call = locateSegments(built, bare);
    expect(call.inputIndices).toEqual([6, 7]);
    expect(call.instructionIndices).toEqual([5]);
  });

  it('a snapshot (no turn id) protects nothing and marks nothing', () => {
    const snapshot: TurnParts = {
      turnId: undefined,
      system: { role: 'system', content: 's' },
      head: [],
      history: [{ role: 'user', content: 'h', metadata: { turnId: 'x', turnEntry: 'opened' } }],
      turn: [],
      inputs: new Set(),
      instructions: new Set(),
    };
    const call = assemble(snapshot);
    expect(call.inputIndices).toEqual([]);
    expect(call.instructionIndices).toEqual([]);
  });
});
