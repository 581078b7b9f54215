import type { ToolExecutionContext } from '@plingjs/agent';
import { describe, expect, it, vi } from 'vitest';
import { defineAction } from './action.js';
import { PageError } from './errors.js';
import { createPage } from './page.js';
import { clearConversation, toRuntimeOptions } from './runtime-options.js';
import { sensitive } from './sensitive.js';
import { nextConfirmation } from './test-helpers.case.js';

const context = (): ToolExecutionContext => ({
  signal: new AbortController().signal,
  turn: 1,
  sessionId: 's',
  callId: 'c1',
});

const action = (id: string, extra: Partial<Parameters<typeof defineAction>[0]> = {}) =>
  defineAction({ id, description: `Does ${id}`, parameters: { type: 'object' }, handler: () => id, ...extra });

describe('toRuntimeOptions', () => {
  it('tools wrap the declared actions plus the built-in handoff; buildSystemPrompt is the page snapshot', () => {
    const page = createPage();
    page.register(action('add_todo'));
    page.state('n', () => 1);
    const { tools, buildSystemPrompt } = toRuntimeOptions(page);
    expect(tools().map((tool) => [tool.name, tool.id])).toEqual([
      ['add_todo', 'add_todo'],
      ['handoff', 'handoff'],
    ]);
    expect(buildSystemPrompt()).toBe(page.snapshot());
    expect(
      toRuntimeOptions(page, { handoffAction: false })
        .tools()
        .map((tool) => tool.name),
    ).toEqual(['add_todo']);
  });

  it('a page action named handoff collides with the built-in: DUPLICATE_ACTION says to pass handoffAction: false', () => {
    const page = createPage();
    page.register(action('handoff'));
    expect(() => toRuntimeOptions(page)).toThrow(/DUPLICATE_ACTION.*handoffAction: false/);
    expect(toRuntimeOptions(page, { handoffAction: false }).tools()).toHaveLength(1);
  });

  it("defaultApproval is resolved from the runtime's config: 'always' confirms an action without confirm", async () => {
    const page = createPage();
    page.register(action('plain'));
    const [plainTool] = toRuntimeOptions(page, { config: { defaultApproval: 'always' } }).tools();
    const result = plainTool!.execute({}, context());
    const request = await nextConfirmation(page);
    expect(request).toMatchObject({ actionId: 'plain', danger: false, sessionId: 's', callId: 'c1' });
    page.confirmations.approve(request.id);
    await expect(result).resolves.toBe('plain');
    const [direct] = toRuntimeOptions(page).tools();
    await expect(direct!.execute({}, context())).resolves.toBe('plain');
    expect(page.confirmations.getSnapshot()).toEqual([]);
  });

  it('the handler and a confirm function get real values; the result leaves the page redacted', async () => {
    const page = createPage();
    page.state('user', () => ({ email: sensitive('ann@example.com', 'email') }));
    const confirm = vi.fn(() => false);
    const handler = vi.fn((args: Record<string, unknown>) => ({ echoed: sensitive(args.to, 'email'), ok: true }));
    page.register(action('mail', { confirm, handler }));
    const [tool] = toRuntimeOptions(page).tools();
    await expect(tool!.execute({ to: '[redacted:email]' }, context())).resolves.toEqual({
      echoed: '[redacted:email]',
      ok: true,
    });
    expect(confirm).toHaveBeenCalledWith({ to: 'ann@example.com' });
    expect(handler.mock.calls[0]![0]).toEqual({ to: 'ann@example.com' });
  });

  it("a handler's error message leaves the page with the page's sensitive values replaced by their markers", async () => {
    const page = createPage();
    page.state('user', () => ({ email: sensitive('ann@example.com', 'email'), phone: sensitive('+44 20 7946 0958') }));
    class MailError extends Error {
      readonly code = 'MAIL_DOWN';
    }
    page.register(
      action('mail', {
        handler: (args) => {
          throw new MailError(`cannot reach ${String(args.to)} or +44 20 7946 0958`);
        },
      }),
    );
    page.register(
      action('text', {
        handler: () => {
          throw 'sms to +44 20 7946 0958 failed';
        },
      }),
    );
    const [mail, text] = toRuntimeOptions(page).tools();
    const thrown = await Promise.resolve()
      .then(() => mail!.execute({ to: '[redacted:email]' }, context()))
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(MailError);
    expect((thrown as MailError).code).toBe('MAIL_DOWN');
    expect((thrown as Error).message).toBe('cannot reach [redacted:email] or [redacted]');
    await expect(Promise.resolve().then(() => text!.execute({}, context()))).rejects.toBe('sms to [redacted] failed');
  });

  it('an action unregistered after the runtime started answers ACTION_UNAVAILABLE', async () => {
    const page = createPage();
    const remove = page.register(action('gone'));
    const [tool] = toRuntimeOptions(page, { config: { locale: 'en' } }).tools();
    remove();
    await expect(tool!.execute({}, context())).rejects.toThrow(/ACTION_UNAVAILABLE.*current page/);
    const [zh] = toRuntimeOptions(page).tools();
    expect(zh!.name).toBe('handoff');
  });

  it('a handler can ask for a person through ctx.requestHandoff', async () => {
    const page = createPage();
    page.register(
      action('refund', {
        handler: (_args, ctx) => ctx.requestHandoff({ reason: 'over limit', context: { amount: 900 } }).id,
      }),
    );
    const [tool] = toRuntimeOptions(page).tools();
    await expect(tool!.execute({}, context())).resolves.toBe('handoff-1');
    expect(page.handoffs.getSnapshot()).toEqual([
      expect.objectContaining({ reason: 'over limit', actionId: 'refund', sessionId: 's', context: { amount: 900 } }),
    ]);
  });
});

describe('toRuntimeOptions: arguments are checked against the declared schema', () => {
  const withId = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a string for an integer', { id: 'seven' }, /\$\.id: expected integer, received string/],
    ['a missing required property', {}, /\$\.id: required property "id" is missing/],
  ])('%s throws INVALID_ARGUMENTS naming $.id: no confirmation, no handler', async (_case, args, violation) => {
    const page = createPage();
    const handler = vi.fn(() => 'ran');
    page.register(action('open_order', { parameters: withId, confirm: 'always', handler }));
    const [tool] = toRuntimeOptions(page, { config: { locale: 'en' } }).tools();
    const failure = await Promise.resolve()
      .then(() => tool!.execute(args, context()))
      .catch((error: unknown) => error);
    expect(PageError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    const message = (failure as Error).message;
    expect(message).toMatch(/^INVALID_ARGUMENTS: The arguments of open_order do not match its JSON Schema/);
    expect(message).toMatch(/call it again with arguments that match the schema:\n- /);
    expect(message).toMatch(violation);
    expect(page.confirmations.getSnapshot()).toEqual([]);
    expect(handler).not.toHaveBeenCalled();
  });

  it('valid arguments are confirmed and run as before', async () => {
    const page = createPage();
    const handler = vi.fn((args: Record<string, unknown>) => args.id);
    page.register(action('open_order', { parameters: withId, confirm: 'always', handler }));
    const [tool] = toRuntimeOptions(page).tools();
    const result = tool!.execute({ id: 7 }, context());
    const request = await nextConfirmation(page);
    expect(request.arguments).toEqual({ id: 7 });
    page.confirmations.approve(request.id);
    await expect(result).resolves.toBe(7);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('the violations are worded in the configured locale (zh-CN by default)', async () => {
    const page = createPage();
    page.register(action('open_order', { parameters: withId }));
    const [tool] = toRuntimeOptions(page).tools();
    await expect(Promise.resolve().then(() => tool!.execute({}, context()))).rejects.toThrow(
      /^INVALID_ARGUMENTS: 动作 open_order 的参数不符合它的 JSON Schema[\s\S]*\n- \$\.id：缺少必填字段「id」$/,
    );
  });

  it("the model's arguments are checked, before markers are restored: a marker fills a string parameter", async () => {
    const page = createPage();
    page.state('user', () => ({ email: sensitive('ann@example.com', 'email') }));
    const handler = vi.fn((args: Record<string, unknown>) => args.to === 'ann@example.com');
    const parameters = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] };
    page.register(action('mail', { parameters, handler }));
    const [tool] = toRuntimeOptions(page).tools();
    await expect(tool!.execute({ to: '[redacted:email]' }, context())).resolves.toBe(true);
  });

  it('the built-in handoff action is checked too', async () => {
    const page = createPage();
    const [handoff] = toRuntimeOptions(page, { config: { locale: 'en' } }).tools();
    await expect(Promise.resolve().then(() => handoff!.execute({ context: 'x' }, context()))).rejects.toThrow(
      /INVALID_ARGUMENTS[\s\S]*\$\.reason: required property "reason" is missing[\s\S]*\$\.context: expected object/,
    );
    expect(page.handoffs.getSnapshot()).toEqual([]);
    await expect(handoff!.execute({ reason: 'needs a person' }, context())).resolves.toMatchObject({
      status: 'requested',
    });
  });
});

describe('clearConversation (内置清空按钮)', () => {
  it('resets the session, clears both queues and resets telemetry', () => {
    const calls: string[] = [];
    clearConversation({
      session: { reset: () => calls.push('session.reset') },
      page: { clearAll: () => calls.push('page.clearAll') },
      telemetry: { reset: () => calls.push('telemetry.reset') },
    });
    expect(calls).toEqual(['session.reset', 'page.clearAll', 'telemetry.reset']);
  });
});
