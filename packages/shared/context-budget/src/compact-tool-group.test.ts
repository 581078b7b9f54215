import { describe, expect, it } from 'vitest';
import { compactToolGroup } from './compact-tool-group.js';
import { contextBudgetMessages } from './messages.js';
import { call, result, text } from './test-fixtures.case.js';

describe('compactToolGroup', () => {
  it('writes one 「[历史工具调用] 工具名 → 结果前 100 字符」 line per call, in call order', () => {
    const compacted = compactToolGroup([
      call(['search', 'fetch']),
      result('search', text(300, 'S')),
      result('fetch', 'page'),
    ]);
    expect(compacted).toEqual({
      role: 'assistant',
      content: `[历史工具调用] search → ${text(100, 'S')}\n[历史工具调用] fetch → page`,
    });
  });

  it('takes the template from the caller (en) and keeps `$` sequences in results literally', () => {
    const english = contextBudgetMessages.en['context.toolCallSummary'];
    expect(compactToolGroup([call(['t']), result('t', 'cost $& more')], english).content).toBe(
      '[Earlier tool call] t → cost $& more',
    );
  });

  it('rejects anything but a tool-call group', () => {
    expect(() => compactToolGroup([result('t', 'x')])).toThrow(TypeError);
  });
});
