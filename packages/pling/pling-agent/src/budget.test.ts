// Budgets per run (tokens, estimated cost) and a host hook for a tenant budget; reaching one ends the run with a
// notice, like maxTurns.
import { validateProviderSequence } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import type { BudgetCheckContext } from './budget.js';
import type { AgentConfig } from './config.js';
import { resolveAgentConfig } from './config.js';
import { PlingError } from './errors.js';
import { createAgentRuntime } from './runtime.js';
import { manualClock, scriptedLlm, toolCall } from './test-helpers.case.js';
import type { AgentTool } from './tool.js';

const step: AgentTool = { name: 'step', description: 'a step', parameters: { type: 'object' }, execute: () => 'ok' };
const usage = { promptTokens: 400, completionTokens: 100 };
const loopForever = Array.from({ length: 20 }, (_, n) => ({ toolCalls: [toolCall(`c${n}`, 'step')], usage }));

function setup(config: AgentConfig, checkBudget?: (context: BudgetCheckContext) => unknown) {
  const llm = scriptedLlm(loopForever);
  const runtime = createAgentRuntime({
    config: { model: 'm', limits: { maxTurns: 100 }, ...config },
    llm,
    tools: [step],
    clock: manualClock(),
    ...(checkBudget && { checkBudget: checkBudget as never }),
  });
  return { llm, runtime, session: runtime.session() };
}

describe('budgets', () => {
  it('budget.maxRunTokens ends the run with a budget notice (not an error), like maxTurns', async () => {
    const { session, llm } = setup({ budget: { maxRunTokens: 1_200 } });
    const result = await session.send('go');
    // 500 tokens per call: after three calls (1500 ≥ 1200) no fourth request is sent.
    expect(result).toMatchObject({ outcome: 'budget', turns: 3 });
    expect(llm.requests).toHaveLength(3);
    const last = session.events().at(-1);
    expect(last).toMatchObject({ type: 'notice', code: 'budget' });
    expect(last?.type === 'notice' && last.message).toContain('1500');
    expect(session.events().some((event) => event.type === 'error')).toBe(false);
    expect(validateProviderSequence(session.history().messages)).toEqual([]);
  });

  it('the budget is per run: the next send() starts from zero', async () => {
    const { session, llm } = setup({ budget: { maxRunTokens: 600 } });
    expect(await session.send('one')).toMatchObject({ outcome: 'budget', turns: 2 });
    expect(await session.send('two')).toMatchObject({ outcome: 'budget', turns: 2 });
    expect(llm.requests).toHaveLength(4);
  });

  it('budget.maxRunCost uses the configured prices', async () => {
    // 400 in × 10/M + 100 out × 30/M = 0.007 per call; 0.02 is reached after three calls.
    const pricing = { inputPerMillionTokens: 10, outputPerMillionTokens: 30 };
    const { session, llm } = setup({ pricing, budget: { maxRunCost: 0.02 } });
    expect(await session.send('go')).toMatchObject({ outcome: 'budget', turns: 3 });
    expect(llm.requests).toHaveLength(3);
  });

  it('a cost budget without prices, or a bad limit, is INVALID_CONFIG', () => {
    const code = (config: AgentConfig) => {
      try {
        resolveAgentConfig({ config });
      } catch (error) {
        return PlingError.isInstance(error) ? error.code : 'other';
      }
    };
    expect(code({ budget: { maxRunCost: 1 } })).toBe('INVALID_CONFIG');
    expect(code({ budget: { maxRunTokens: 0 } })).toBe('INVALID_CONFIG');
    expect(code({ budget: { maxTokens: 5 } as never })).toBe('INVALID_CONFIG');
    expect(code({ budget: { maxRunTokens: 10 } })).toBeUndefined();
  });

  it('checkBudget (a tenant budget) is asked before every request and can end the run with its reason', async () => {
    const seen: BudgetCheckContext[] = [];
    let tenantTokens = 0;
    const { session, llm } = setup({}, (context) => {
      seen.push(context);
      tenantTokens = context.telemetry.totalTokens;
      return tenantTokens >= 1_000 ? { exceeded: true, reason: '租户本月额度已用完' } : undefined;
    });
    expect(await session.send('go')).toMatchObject({ outcome: 'budget', turns: 2 });
    expect(llm.requests).toHaveLength(2);
    expect(seen.map((context) => context.turn)).toEqual([1, 2, 3]);
    expect(seen[2]!.run).toMatchObject({ modelCalls: 2, totalTokens: 1_000 });
    const notice = session.events().at(-1);
    expect(notice?.type === 'notice' && notice.message).toContain('租户本月额度已用完');
    // Already exhausted: the next run stops before any request.
    expect(await session.send('more')).toMatchObject({ outcome: 'budget', turns: 0 });
    expect(llm.requests).toHaveLength(2);
  });
});
