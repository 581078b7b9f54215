import { describe, expect, it } from 'vitest';
import { emitToolExecuteFailure, type ToolExecuteEvent } from './tool-execute-event.js';
import { errorResult, isToolResult, toToolResult } from './tool-result.js';
import { toolsErrors } from './tools-errors.js';

describe('toToolResult', () => {
  it('keeps ToolResults, wraps strings and serialises everything else', () => {
    expect(toToolResult({ content: 'a', isError: true })).toEqual({ content: 'a', isError: true });
    expect(toToolResult('text')).toEqual({ content: 'text' });
    expect(toToolResult(undefined)).toEqual({ content: '' });
    expect(toToolResult(null)).toEqual({ content: '' });
    expect(toToolResult(42)).toEqual({ content: '42' });
    expect(toToolResult({ content: 'a', extra: 1 })).toEqual({ content: '{"content":"a","extra":1}' });
    expect(toToolResult([1, 'x'])).toEqual({ content: '[1,"x"]' });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(toToolResult(circular)).toEqual({ content: '[object Object]' });
    expect(toToolResult(10n)).toEqual({ content: '10' });
  });

  it('recognises only exact ToolResult shapes', () => {
    expect(isToolResult({ content: 'x', metadata: {} })).toBe(true);
    expect(isToolResult({ content: 1 })).toBe(false);
    expect(isToolResult(['x'])).toBe(false);
  });
});

describe('errorResult', () => {
  it('carries the code and the localized text of a coded error', () => {
    const result = errorResult(toolsErrors.AALIS_TOOLS_UNKNOWN({ name: 'x' }), 'zh-CN');
    expect(result).toEqual({ isError: true, code: 'AALIS_TOOLS_UNKNOWN', content: expect.stringContaining('「x」') });
    expect(errorResult(new Error('plain'), 'en')).toEqual({ isError: true, content: 'plain' });
  });
});

describe('emitToolExecuteFailure', () => {
  it('emits a start and an end carrying the error result', () => {
    const seen: ToolExecuteEvent[] = [];
    emitToolExecuteFailure({
      events: { emit: (_name, payload) => seen.push(payload as ToolExecuteEvent) },
      call: { name: 'echo', callId: 'c1', turnId: 't1', sessionId: 's1' },
      arguments: '{bad',
      result: { content: 'bad JSON' },
    });
    expect(seen).toEqual([
      { phase: 'start', name: 'echo', callId: 'c1', turnId: 't1', sessionId: 's1', arguments: '{bad' },
      {
        phase: 'end',
        name: 'echo',
        callId: 'c1',
        turnId: 't1',
        sessionId: 's1',
        result: { content: 'bad JSON', isError: true },
        durationMs: 0,
      },
    ]);
  });
});
