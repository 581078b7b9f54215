import { describe, expect, it } from 'vitest';
import { HookRegistry, type ToolUseContext } from './hooks.js';

const context: ToolUseContext = { id: 'delete-order', toolName: 'delete_order', arguments: { id: 7 }, turn: 2 };

describe('工具生命周期钩子', () => {
  it('钩子按注册顺序执行; 前钩子遇到第一个 blocked 就终止链', async () => {
    const hooks = new HookRegistry();
    const order: string[] = [];
    hooks.addPreToolUse(() => {
      order.push('first');
    });
    hooks.addPreToolUse(() => {
      order.push('second');
      return { blocked: true, reason: '删除需要单独的审批策略' };
    });
    hooks.addPreToolUse(() => {
      order.push('third');
    });
    expect(await hooks.runPreToolUse(context)).toEqual({ blocked: true, reason: '删除需要单独的审批策略' });
    expect(order).toEqual(['first', 'second']);
  });

  it('PreToolUse 读取动作 id、模型工具名、参数与轮次', async () => {
    const hooks = new HookRegistry();
    const seen: ToolUseContext[] = [];
    hooks.addPreToolUse((received) => {
      seen.push(received);
    });
    expect(await hooks.runPreToolUse(context)).toBeUndefined();
    expect(seen).toEqual([context]);
  });

  it('后钩子返回非 undefined 时, 该结果成为下一个钩子的输入', async () => {
    const hooks = new HookRegistry();
    const inputs: unknown[] = [];
    hooks.addPostToolUse(({ result }) => {
      inputs.push(result);
      if ('error' in result) return;
      return { result: { ...(result.result as Record<string, unknown>), email: '[redacted]' } };
    });
    hooks.addPostToolUse(({ result }) => {
      inputs.push(result);
    });
    const final = await hooks.runPostToolUse(context, { result: { name: 'Ann', email: 'ann@example.com' } });
    expect(final).toEqual({ result: { name: 'Ann', email: '[redacted]' } });
    expect(inputs[1]).toEqual(final);
  });

  it('add* returns a remover; removing twice is harmless', async () => {
    const hooks = new HookRegistry();
    let calls = 0;
    const remove = hooks.addPreToolUse(() => {
      calls++;
    });
    await hooks.runPreToolUse(context);
    remove();
    remove();
    await hooks.runPreToolUse(context);
    expect(calls).toBe(1);
  });
});
