import { describe, expect, it } from 'vitest';
import { OutputBudget, OverlongResponseError } from './output-budget.js';

describe('OutputBudget', () => {
  it('cuts text and tool arguments past 32 characters a token, reasoning and the raw body past their own limits', () => {
    const text = new OutputBudget(10);
    text.deliver({ type: 'text-delta', text: 'x'.repeat(200) });
    text.deliver({ type: 'tool-call-delta', index: 0, argumentsDelta: 'y'.repeat(120) });
    expect(() => text.deliver({ type: 'text-delta', text: 'z' })).toThrow(OverlongResponseError);

    const reasoning = new OutputBudget(10);
    reasoning.deliver({ type: 'reasoning-delta', text: 'r'.repeat(32 * 1_000) }); // past max_tokens, within the allowance
    expect(() => reasoning.deliver({ type: 'reasoning-delta', text: 'r'.repeat(32 * 32_768) })).toThrow(
      expect.objectContaining({ part: 'reasoning', maxTokens: 10 }),
    );

    const body = new OutputBudget(10);
    body.received(16 * 1_048_576);
    expect(() => body.received(10 * 1_024 + 1)).toThrow(expect.objectContaining({ part: 'body' }));
  });
});
