import type { TraceEntry } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { createTraceNumbering, TRACE_PREVIEW_CHARACTERS, tracePreview } from './trace-view.js';

describe('tracePreview', () => {
  it('shows a message’s text, cut to 200 characters with an ellipsis', () => {
    expect(tracePreview({ role: 'user', content: 'short' })).toBe('short');
    const long = 'x'.repeat(250);
    expect(TRACE_PREVIEW_CHARACTERS).toBe(200);
    expect(tracePreview({ role: 'system', content: long })).toBe(`${'x'.repeat(200)}…`);
    expect(tracePreview({ role: 'system', content: 'x'.repeat(200) })).toBe('x'.repeat(200));
  });

  it('counts characters, not UTF-16 units, so a cut never splits an emoji', () => {
    const text = '😀'.repeat(5);
    expect(tracePreview({ role: 'user', content: text }, 3)).toBe('😀😀😀…');
  });

  it('a tool-calling reply without text shows its calls', () => {
    const message = {
      role: 'assistant' as const,
      content: '',
      toolCalls: [{ id: 'c1', type: 'function' as const, function: { name: 'delete_todo', arguments: '{"index":0}' } }],
    };
    expect(tracePreview(message)).toBe('delete_todo({"index":0})');
  });
});

describe('createTraceNumbering', () => {
  it('numbers entries by first sight and keeps each number with its entry as older ones drop out', () => {
    const entry = (at: number): TraceEntry => ({ at, sessionId: 'default', model: 'm', messages: [], tools: [] });
    const [a, b, c] = [entry(1), entry(1), entry(2)];
    const numberOf = createTraceNumbering();
    expect([a, b].map(numberOf)).toEqual([1, 2]);
    expect([b, c].map(numberOf)).toEqual([2, 3]);
    expect(numberOf(a)).toBe(1);
  });
});
