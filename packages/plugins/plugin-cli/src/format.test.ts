import type { TokenUsageEvent } from '@aalis/api-agent';
import { translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { excerpt, formatNotice, formatToolLine, formatUsageLine, usageTag } from './format.js';
import { colourStyle, plainStyle } from './style.js';
import './cli-texts.js';

describe('formatToolLine', () => {
  const call = { callId: 'c1', name: 'calculator', args: '{"expression":"6*7"}' };

  it('shows the call while its arguments stream and while it runs', () => {
    expect(formatToolLine({ ...call, args: '{"expr', state: 'streaming' }, plainStyle)).toBe('⚙ calculator {"expr');
    expect(formatToolLine({ ...call, state: 'running' }, plainStyle)).toBe('⚙ calculator {"expression":"6*7"} …');
  });

  it('ends with the result summary and duration, or the error', () => {
    expect(formatToolLine({ ...call, state: 'done', result: '42', durationMs: 3 }, plainStyle)).toBe(
      '✓ calculator {"expression":"6*7"} → 42 · 3 ms',
    );
    const failed = formatToolLine({ ...call, state: 'failed', result: 'Unknown name "x".', durationMs: 1 }, plainStyle);
    expect(failed).toBe('✗ calculator {"expression":"6*7"} → Unknown name "x". · 1 ms');
  });

  it('keeps one line: whitespace collapsed, long arguments and results cut', () => {
    const line = formatToolLine(
      { ...call, args: `{"text":"${'a'.repeat(200)}"}`, state: 'done', result: `line 1\nline 2 ${'b'.repeat(200)}` },
      plainStyle,
    );
    expect(line).not.toContain('\n');
    expect(line.length).toBeLessThan(170);
    expect(excerpt('a\n\n b', 10)).toBe('a b');
  });

  it('colours only when asked', () => {
    expect(formatToolLine({ ...call, state: 'done', result: '42' }, colourStyle)).toContain('\x1b[32m✓');
  });
});

describe('formatNotice', () => {
  it('colours errors red and system notices yellow, line by line', () => {
    expect(formatNotice('error', '[错误] a\nb', colourStyle)).toEqual([
      '\x1b[31m[错误] a\x1b[39m',
      '\x1b[31mb\x1b[39m',
    ]);
    expect(formatNotice('system', '[系统] x', plainStyle)).toEqual(['[系统] x']);
    expect(formatNotice('reply', 'hi', colourStyle)).toEqual(['hi']);
  });
});

describe('the usage line', () => {
  it('tags by the agent log thresholds', () => {
    expect([0.1, 0.5, 0.7, 0.85, 1].map(usageTag)).toEqual(['OK', 'INFO', 'WARN', 'CRITICAL', 'CRITICAL']);
  });

  it('lists the non-zero parts with their labels', () => {
    const event = {
      sessionId: 's',
      turnId: 't',
      platform: 'cli',
      contextWindow: 8192,
      maxTokens: 1024,
      tokenBudget: 6656,
      used: 4096,
      usageRatio: 0.5,
      trimmed: true,
      untrimmedHistory: 0,
      historyMessages: 3,
      historyLimit: 0,
      breakdown: { reservedForReply: 1024 },
      parts: [
        { label: 'History', tokens: 300 },
        { label: { key: 'cli.usage.reserve' }, tokens: 0 },
        { label: 'Tool definitions', tokens: 120 },
      ],
    } as unknown as TokenUsageEvent;
    expect(formatUsageLine(event, (text) => translate(text, 'en'))).toBe(
      '[token-usage:INFO] 4096/8192 (50.0%) trimmed · History 300 · Tool definitions 120 · reserved for the reply 1024',
    );
  });
});
