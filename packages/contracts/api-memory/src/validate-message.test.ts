import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { clearTargets } from './clear-targets.js';
import { assertValidMessages, messageIssue } from './validate-message.js';

describe('messageIssue', () => {
  it('accepts every documented field', () => {
    const message: Message = {
      id: 'x',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '{}' } }],
      reasoningContent: 'r',
      kind: 'turn-stopped',
      attachments: [{ type: 'image', url: 'u' }],
      metadata: { a: [1, { b: null }] },
      timestamp: 1,
    };
    expect(messageIssue(message)).toBeUndefined();
  });

  it('names the first bad field', () => {
    expect(messageIssue(null)?.field).toBe('(message)');
    expect(messageIssue({ role: 'bot', content: '' })?.field).toBe('role');
    expect(messageIssue({ role: 'user', content: 1 })?.field).toBe('content');
    expect(messageIssue({ role: 'user', content: '', kind: 3 })?.field).toBe('kind');
    expect(messageIssue({ role: 'user', content: '', timestamp: Number.NaN })?.field).toBe('timestamp');
    expect(messageIssue({ role: 'tool', content: '', toolCalls: {} })?.field).toBe('toolCalls');
    expect(messageIssue({ role: 'user', content: '', attachments: [{ type: 'hologram' }] })?.field).toBe(
      'attachments.0',
    );
    expect(messageIssue({ role: 'user', content: '', metadata: { n: 1n } })?.field).toBe('metadata');
  });

  it('throws a coded error for a non-array batch', () => {
    expect(() => assertValidMessages('s', 'nope' as never)).toThrow(
      expect.objectContaining({ code: 'AALIS_MEMORY_ARGUMENT_INVALID' }),
    );
  });
});

describe('clearTargets', () => {
  it('normalises to undefined (all), or a deduplicated list', () => {
    expect(clearTargets(undefined)).toBeUndefined();
    expect(clearTargets('a')).toEqual(['a']);
    expect(clearTargets(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(() => clearTargets([''])).toThrow(expect.objectContaining({ code: 'AALIS_MEMORY_ARGUMENT_INVALID' }));
  });
});
