// Through createPlingCore and the DockModel every adapter renders: a page-event listener that throws does not break a
// call, the retry line counts from 1, and a budget (config.budget or the host's checkBudget) ends the run with a notice
// the dock shows.
import { PlingError } from '@plingjs/agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlingCore } from './create-pling-core.js';
import { DockModel } from './dock-model.js';
import { manualClock, scriptedLlm, toolCall } from './test-helpers.case.js';

afterEach(() => vi.restoreAllMocks());

const usage = { promptTokens: 300, completionTokens: 100 };

describe('run limits as the dock shows them', () => {
  it('the retry line counts from 1', async () => {
    let calls = 0;
    const llm = scriptedLlm([
      () => {
        calls++;
        throw new PlingError({ code: 'NETWORK_ERROR', message: 'offline', retryable: true });
      },
      { content: 'back' },
    ]);
    const core = createPlingCore({ agent: { config: { model: 'm' }, env: {}, llm, clock: manualClock() } });
    const dock = new DockModel({ core });
    await dock.send('hi');
    expect(calls).toBe(1);
    const retry = dock.getSnapshot().operations.find((operation) => operation.status === 'info');
    expect(retry?.text).toContain('第 1 次重试');
    dock.dispose();
  });

  it('config.budget ends the run with a notice in the dock, like maxTurns', async () => {
    const replies = Array.from({ length: 5 }, (_, n) => ({ toolCalls: [toolCall(`c${n}`, 'step')], usage }));
    const core = createPlingCore({
      agent: { config: { model: 'm', budget: { maxRunTokens: 800 } }, env: {}, llm: scriptedLlm(replies) },
    });
    core.register({
      id: 'step',
      description: 'a step',
      parameters: { type: 'object' },
      confirm: 'never',
      handler: () => 1,
    });
    const dock = new DockModel({ core });
    await dock.send('go');
    const state = dock.getSnapshot();
    expect(state.notice).toContain('预算');
    expect(state.error).toBeUndefined();
    dock.dispose();
  });

  it('createPling({ agent: { checkBudget } }) is the tenant budget hook', async () => {
    const checkBudget = vi.fn(() => ({ exceeded: true as const, reason: 'tenant quota used up' }));
    const llm = scriptedLlm([]);
    const core = createPlingCore({ agent: { config: { model: 'm', locale: 'en' }, env: {}, llm, checkBudget } });
    expect(await core.session().send('hi')).toMatchObject({ outcome: 'budget' });
    expect(llm.requests).toHaveLength(0);
    expect(core.session().events().at(-1)).toMatchObject({ type: 'notice', code: 'budget' });
    expect(checkBudget).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 'default', turn: 1 }));
  });

  it('a page-event listener that throws is reported once and the confirmation still works', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const llm = scriptedLlm([{ toolCalls: [toolCall('a', 'remove')] }, { content: 'removed' }]);
    const core = createPlingCore({
      agent: { config: { model: 'm' }, env: {}, llm },
      page: {
        onEvent: () => {
          throw new Error('page listener broke');
        },
      },
    });
    core.register({
      id: 'remove',
      description: 'removes',
      parameters: { type: 'object' },
      danger: true,
      handler: () => 'ok',
    });
    core.page.confirmations.subscribe(() => {
      const pending = core.page.confirmations.getSnapshot()[0];
      if (pending) core.page.confirmations.approve(pending.id);
    });
    expect(await core.session().send('remove it')).toMatchObject({ outcome: 'completed', text: 'removed' });
    const result = JSON.parse(
      core
        .session()
        .history()
        .messages.find((message) => message.role === 'tool')!.content,
    );
    expect(result).toEqual({ result: 'ok' });
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
