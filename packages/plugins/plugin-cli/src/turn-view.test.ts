import { translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { colourStyle, plainStyle } from './style.js';
import { type ReasoningDisplay, TurnView } from './turn-view.js';
import './cli-texts.js';

const t = (text: Parameters<typeof translate>[0]) => translate(text, 'en');
const view = (reasoning: ReasoningDisplay = 'collapsed') => new TurnView({ reasoning, style: plainStyle, t });
const base = { sessionId: 's', turnId: 't1' };

describe('TurnView', () => {
  it('commits streamed reply text line by line and keeps the partial line live', () => {
    const screen = view();
    screen.fragment({ ...base, delta: 'Hello, ' });
    expect(screen.take()).toEqual({ commit: [], live: ['Hello, '] });
    screen.fragment({ ...base, delta: 'world.\nSecond' });
    expect(screen.take()).toEqual({ commit: ['Hello, world.'], live: ['Second'] });
    screen.fragment({ ...base, done: true });
    expect(screen.take()).toEqual({ commit: ['Second'], live: [] });
  });

  it('does not print a streamed reply a second time when its message arrives', () => {
    const screen = view();
    screen.fragment({ ...base, delta: 'Hi.' });
    screen.message({ sessionId: 's', kind: 'reply', content: 'Hi.', turnId: 't1' });
    screen.fragment({ ...base, done: true });
    expect(screen.take().commit).toEqual(['Hi.']);
    // A reply that was not streamed is printed.
    screen.message({ sessionId: 's', kind: 'reply', content: 'Unstreamed', turnId: 't9' });
    expect(screen.take().commit).toEqual(['Unstreamed']);
  });

  it('shows reasoning as one live line that collapses to a summary', () => {
    const screen = view('collapsed');
    screen.fragment({ ...base, reasoningDelta: 'Let me think' });
    expect(screen.take().live).toEqual(['💭 Thinking… (12 characters)']);
    screen.fragment({ ...base, reasoningDelta: ' more.' });
    screen.fragment({ ...base, delta: 'Answer' });
    expect(screen.take()).toEqual({
      commit: ['▸ Thought for 18 characters (/reasoning to expand)'],
      live: ['Answer'],
    });
    expect(screen.lastReasoning).toBe('Let me think more.');
  });

  it('shows reasoning in full when expanded, and not at all when hidden', () => {
    const expanded = view('expanded');
    expanded.fragment({ ...base, reasoningDelta: 'step 1\nstep' });
    expect(expanded.take()).toEqual({ commit: ['step 1'], live: ['step'] });
    expanded.fragment({ ...base, delta: 'A' });
    expect(expanded.take()).toEqual({ commit: ['step'], live: ['A'] });

    const hidden = view('hidden');
    hidden.fragment({ ...base, reasoningDelta: 'secret' });
    hidden.fragment({ ...base, delta: 'A' });
    expect(hidden.take()).toEqual({ commit: [], live: ['A'] });
    expect(hidden.lastReasoning).toBe('secret');
  });

  it('gives every tool call one line that follows its progress and result', () => {
    const screen = view();
    screen.fragment({ ...base, delta: 'Let me check.' });
    screen.fragment({
      ...base,
      toolCallProgress: { callId: 'c1', index: 0, name: 'calculator', argumentsDelta: '{"ex' },
    });
    expect(screen.take()).toEqual({ commit: ['Let me check.'], live: ['⚙ calculator {"ex'] });
    screen.fragment({ ...base, toolCallProgress: { callId: 'c1', index: 0, argumentsDelta: 'pression":"6*7"}' } });
    screen.fragment({
      ...base,
      toolCallProgress: { callId: 'c2', index: 1, name: 'current_time', argumentsDelta: '{}' },
    });
    screen.toolExecute({
      phase: 'start',
      name: 'calculator',
      callId: 'c1',
      turnId: 't1',
      sessionId: 's',
      arguments: '',
    });
    screen.toolExecute({
      phase: 'start',
      name: 'current_time',
      callId: 'c2',
      turnId: 't1',
      sessionId: 's',
      arguments: {},
    });
    expect(screen.take().live).toEqual(['⚙ calculator {"expression":"6*7"} …', '⚙ current_time {} …']);
    screen.toolExecute({
      phase: 'end',
      name: 'current_time',
      callId: 'c2',
      turnId: 't1',
      sessionId: 's',
      result: { content: 'Unknown time zone', isError: true },
      durationMs: 1.4,
    });
    screen.toolExecute({
      phase: 'end',
      name: 'calculator',
      callId: 'c1',
      turnId: 't1',
      sessionId: 's',
      result: { content: '42' },
      durationMs: 2,
    });
    expect(screen.take().live).toEqual([
      '✓ calculator {"expression":"6*7"} → 42 · 2 ms',
      '✗ current_time {} → Unknown time zone · 1 ms',
    ]);
    screen.fragment({ ...base, delta: 'It is 42.' });
    expect(screen.take()).toEqual({
      commit: ['✓ calculator {"expression":"6*7"} → 42 · 2 ms', '✗ current_time {} → Unknown time zone · 1 ms'],
      live: ['It is 42.'],
    });
  });

  it('shows a tool call that never streamed (a failure before it ran) from its execute events', () => {
    const screen = view();
    screen.toolExecute({ phase: 'start', name: 'x', callId: 'c9', turnId: 't1', sessionId: 's', arguments: '{bad' });
    screen.toolExecute({
      phase: 'end',
      name: 'x',
      callId: 'c9',
      turnId: 't1',
      sessionId: 's',
      result: { content: 'not JSON', isError: true },
      durationMs: 0,
    });
    expect(screen.take().live).toEqual(['✗ x {bad → not JSON · 0 ms']);
  });

  it('marks a stopped turn after what it streamed', () => {
    const screen = view();
    screen.fragment({ ...base, delta: 'Half an ans' });
    screen.turnOutcome('t1', 'aborted');
    screen.fragment({ ...base, done: true });
    expect(screen.take().commit).toEqual(['Half an ans', '⏹ This turn was stopped']);
  });

  it('prints notices and command replies, a turn notice after what the turn streamed', () => {
    const screen = view();
    screen.fragment({ ...base, delta: 'partial' });
    screen.message({ sessionId: 's', kind: 'system', content: 'Session settings:\n llm …' });
    expect(screen.take()).toEqual({ commit: ['Session settings:', ' llm …'], live: ['partial'] });
    screen.message({ sessionId: 's', kind: 'error', content: '[Error] The model call failed', turnId: 't1' });
    expect(screen.take()).toEqual({ commit: ['partial', '[Error] The model call failed'], live: [] });
  });

  it('shows how many inputs wait at the bottom of the live region', () => {
    const screen = view();
    screen.waiting = 2;
    expect(screen.take().live).toEqual(['⏳ 2 messages waiting']);
  });

  it('neutralises control sequences in replies, reasoning, tool calls and notices; only its own styling remains', () => {
    const hostile = 'x\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[?1049h\x9b2J\ry';
    const printed: string[] = [];
    for (const reasoning of ['collapsed', 'expanded'] as const) {
      const screen = new TurnView({ reasoning, style: colourStyle, t });
      screen.fragment({ ...base, reasoningDelta: `${hostile}\n${hostile}` });
      screen.fragment({ ...base, delta: `${hostile}\n${hostile}` });
      screen.fragment({
        ...base,
        toolCallProgress: { callId: 'c1', index: 0, name: hostile, argumentsDelta: hostile },
      });
      screen.toolExecute({
        phase: 'start',
        name: hostile,
        callId: 'c2',
        turnId: 't1',
        sessionId: 's',
        arguments: hostile,
      });
      for (const callId of ['c1', 'c2']) {
        screen.toolExecute({
          phase: 'end',
          name: hostile,
          callId,
          turnId: 't1',
          sessionId: 's',
          result: { content: hostile, isError: callId === 'c2' },
          durationMs: 1,
        });
      }
      printed.push(...screen.take().live);
      screen.message({ sessionId: 's', kind: 'error', content: hostile, turnId: 't1' });
      screen.message({ sessionId: 's', kind: 'system', content: hostile });
      screen.fragment({ ...base, done: true });
      printed.push(...screen.take().commit);
    }
    const text = printed.join('\n');
    expect(text).toContain('␛]0;pwned␇');
    // Every escape left is one of the style's SGR sequences (colour, dim), nothing else; no C1 control, no CR.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is checked.
    expect(text.replace(/\x1b\[(?:1|2|22|31|32|33|36|39)m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});
