// The page layer with the real @plingjs/agent runtime and a scripted model.
import { createAgentRuntime, HookRegistry, type Locale, type ModelRequest, type RuntimeEvent } from '@plingjs/agent';
import { describe, expect, it, vi } from 'vitest';
import { defineAction } from './action.js';
import { createPage } from './page.js';
import type { PageEvent } from './page-events.js';
import { clearConversation, toRuntimeOptions } from './runtime-options.js';
import { sensitive } from './sensitive.js';
import { manualClock, nextConfirmation, scriptedLlm, toolCall } from './test-helpers.case.js';

const EMAIL = 'ann@example.com';

function setup({
  hooks,
  minActionIntervalMs = 0,
  locale = 'en',
}: {
  hooks?: HookRegistry;
  minActionIntervalMs?: number;
  locale?: Locale;
} = {}) {
  const pageEvents: PageEvent[] = [];
  const runtimeEvents: RuntimeEvent[] = [];
  const page = createPage({ title: 'Invoices', onEvent: (event) => pageEvents.push(event) });
  let sent = 0;
  page.state('customer', () => ({ name: 'Ann', email: sensitive(EMAIL, 'email') }));
  page.state('sent', () => sent);
  const handler = vi.fn((args: Record<string, unknown>) => {
    sent++;
    return { sentTo: sensitive(args.to, 'email'), invoice: args.invoice };
  });
  page.register(
    defineAction({
      id: 'send_invoice',
      description: 'Emails an invoice to the customer',
      parameters: { type: 'object', properties: { to: { type: 'string' }, invoice: { type: 'number' } } },
      danger: true,
      handler,
    }),
  );
  const noteHandler = vi.fn(() => 'noted');
  page.register(
    defineAction({ id: 'add_note', description: 'Adds a note', parameters: { type: 'object' }, handler: noteHandler }),
  );
  return { page, pageEvents, runtimeEvents, handler, noteHandler, hooks, minActionIntervalMs, locale };
}

function start(context: ReturnType<typeof setup>, replies: Parameters<typeof scriptedLlm>[0]) {
  const config = { model: 'm', minActionIntervalMs: context.minActionIntervalMs, locale: context.locale };
  const llm = scriptedLlm(replies);
  const clock = manualClock();
  const runtime = createAgentRuntime({
    config,
    llm,
    clock,
    ...(context.hooks && { hooks: context.hooks }),
    ...toRuntimeOptions(context.page, { config }),
    onEvent: (event) => context.runtimeEvents.push(event),
  });
  return { runtime, session: runtime.session(), llm, clock };
}

const toolMessages = (request: ModelRequest | undefined) =>
  (request?.messages ?? []).filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content));
const systemOf = (request: ModelRequest | undefined) => request?.messages[0]?.content ?? '';

describe('page layer with the agent runtime', () => {
  it('a dangerous action waits in the queue; approving runs it with the real value; the model sees markers only', async () => {
    const context = setup();
    const { session, llm } = start(context, [
      { toolCalls: [toolCall('c1', 'send_invoice', { to: '[redacted:email]', invoice: 7 })] },
      { content: 'Sent.' },
    ]);
    const run = session.send('Send invoice 7 to the customer');
    const request = await nextConfirmation(context.page);
    expect(request).toMatchObject({ actionId: 'send_invoice', danger: true, callId: 'c1', sessionId: 'default' });
    expect(request.arguments).toEqual({ to: '[redacted:email]', invoice: 7 });
    expect(context.handler).not.toHaveBeenCalled();
    context.page.confirmations.approve(request.id);
    await expect(run).resolves.toMatchObject({ outcome: 'completed', text: 'Sent.' });

    expect(context.handler.mock.calls[0]![0]).toEqual({ to: EMAIL, invoice: 7 });
    expect(toolMessages(llm.requests[1])).toEqual([{ result: { sentTo: '[redacted:email]', invoice: 7 } }]);
    // 系统提示每轮都会按当前页面重建: the second turn sees the state the action changed.
    expect(systemOf(llm.requests[0])).toContain('- sent: 0');
    expect(systemOf(llm.requests[1])).toContain('- sent: 1');
    expect(systemOf(llm.requests[1])).toContain('"email":"[redacted:email]"');
    expect(JSON.stringify(llm.requests)).not.toContain(EMAIL);
    expect(JSON.stringify([context.pageEvents, context.runtimeEvents, session.events()])).not.toContain(EMAIL);
    expect(context.pageEvents.map((event) => event.type)).toEqual(['confirmation:requested', 'confirmation:approved']);
  });

  it('rejection gives the model an error result it can read, and the handler never runs', async () => {
    const context = setup();
    const { session, llm } = start(context, [
      { toolCalls: [toolCall('c1', 'send_invoice', { to: '[redacted:email]', invoice: 7 })] },
      { content: 'Understood, not sent.' },
    ]);
    const run = session.send('Send it');
    const request = await nextConfirmation(context.page);
    context.page.confirmations.reject(request.id, 'wrong invoice');
    await expect(run).resolves.toMatchObject({ outcome: 'completed' });
    expect(context.handler).not.toHaveBeenCalled();
    const [result] = toolMessages(llm.requests[1]);
    expect(result.error.code).toBe('CONFIRMATION_REJECTED');
    expect(result.error.message).toMatch(/^The user did not approve send_invoice: wrong invoice/);
    expect(session.events()).toContainEqual(
      expect.objectContaining({ type: 'tool-result', ok: false, code: 'CONFIRMATION_REJECTED' }),
    );
    expect(context.pageEvents.at(-1)).toMatchObject({
      type: 'confirmation:rejected',
      by: 'user',
      reason: 'wrong invoice',
    });
  });

  it('a PreToolUse hook blocking the call means no confirmation is ever requested', async () => {
    const hooks = new HookRegistry();
    hooks.addPreToolUse(({ id }) =>
      id === 'send_invoice' ? { blocked: true, reason: 'invoices are paused' } : undefined,
    );
    const context = setup({ hooks });
    const { session, llm } = start(context, [
      { toolCalls: [toolCall('c1', 'send_invoice', { to: '[redacted:email]' })] },
      { content: 'Blocked.' },
    ]);
    await expect(session.send('Send it')).resolves.toMatchObject({ outcome: 'completed' });
    expect(context.pageEvents).toEqual([]);
    expect(context.page.confirmations.getSnapshot()).toEqual([]);
    expect(context.handler).not.toHaveBeenCalled();
    expect(toolMessages(llm.requests[1])).toEqual([
      { error: { code: 'HOOK_BLOCKED', message: 'invoices are paused' } },
    ]);
    expect(session.events()).toContainEqual(expect.objectContaining({ type: 'blocked', id: 'send_invoice' }));
  });

  it('cancelling the run while a confirmation waits takes it out of the queue', async () => {
    const context = setup();
    const { session, llm } = start(context, [{ toolCalls: [toolCall('c1', 'send_invoice', { invoice: 1 })] }]);
    const run = session.send('Send it');
    await nextConfirmation(context.page);
    session.cancel();
    await expect(run).resolves.toMatchObject({ outcome: 'cancelled' });
    expect(context.page.confirmations.getSnapshot()).toEqual([]);
    expect(context.pageEvents.at(-1)).toMatchObject({ type: 'confirmation:rejected', by: 'cancelled' });
    expect(context.handler).not.toHaveBeenCalled();
    expect(llm.requests).toHaveLength(1);
  });

  it('minActionIntervalMs spaces the actions of one batch once (the runtime does it; the page layer adds no wait)', async () => {
    const context = setup({ minActionIntervalMs: 250 });
    const { session, clock } = start(context, [
      { toolCalls: [toolCall('c1', 'add_note'), toolCall('c2', 'add_note'), toolCall('c3', 'add_note')] },
    ]);
    await session.send('Three notes');
    expect(context.noteHandler).toHaveBeenCalledTimes(3);
    expect(clock.sleeps).toEqual([250, 250]);
  });

  it('the model can ask for a person with the built-in handoff; the clear button empties queues and session', async () => {
    const context = setup();
    const { runtime, session, llm } = start(context, [
      { toolCalls: [toolCall('c1', 'handoff', { reason: 'customer disputes the amount', context: { invoice: 7 } })] },
      { content: 'A colleague will take over.' },
    ]);
    await session.send('This amount is wrong!');
    expect(context.page.handoffs.getSnapshot()).toEqual([
      expect.objectContaining({ id: 'handoff-1', reason: 'customer disputes the amount', actionId: 'handoff' }),
    ]);
    expect(toolMessages(llm.requests[1])).toEqual([{ result: { handoffId: 'handoff-1', status: 'requested' } }]);

    // session.reset() alone leaves the queues (the spec: hosts calling reset directly must clear them).
    session.reset();
    expect(context.page.handoffs.getSnapshot()).toHaveLength(1);
    clearConversation({ session, page: context.page, telemetry: runtime.telemetry });
    expect(context.page.handoffs.getSnapshot()).toEqual([]);
    expect(session.events()).toEqual([]);
    expect(runtime.telemetry.snapshot().modelCalls).toBe(0);
  });
});

describe('actions registered after the runtime was created become tools', () => {
  const names = (request: ModelRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name);

  it('a later action is offered on the next turn and runs; an unregistered one is no longer offered', async () => {
    const context = setup();
    const { session, llm } = start(context, [
      { content: 'hello' },
      { toolCalls: [toolCall('c1', 'archive', { id: 3 })] },
      { content: 'Archived.' },
      { toolCalls: [toolCall('c2', 'archive', { id: 4 })] },
      { content: 'Cannot.' },
    ]);
    await session.send('Hi');
    expect(names(llm.requests[0])).toEqual(['add_note', 'send_invoice', 'handoff']);

    const archive = vi.fn((args: Record<string, unknown>) => ({ archived: args.id }));
    const remove = context.page.register(
      defineAction({
        id: 'archive',
        description: 'Archives an order',
        parameters: { type: 'object' },
        handler: archive,
      }),
    );
    await expect(session.send('Archive order 3')).resolves.toMatchObject({ outcome: 'completed', text: 'Archived.' });
    expect(names(llm.requests[1])).toEqual(['add_note', 'archive', 'send_invoice', 'handoff']);
    expect(archive).toHaveBeenCalledWith({ id: 3 }, expect.objectContaining({ actionId: 'archive' }));
    expect(toolMessages(llm.requests[2])).toEqual([{ result: { archived: 3 } }]);
    expect(systemOf(llm.requests[1])).toContain('- archive: Archives an order');

    remove();
    await session.send('Archive order 4');
    expect(names(llm.requests[3])).toEqual(['add_note', 'send_invoice', 'handoff']);
    expect(systemOf(llm.requests[3])).not.toContain('archive');
    expect(archive).toHaveBeenCalledTimes(1);
    expect(toolMessages(llm.requests[4]).at(-1)).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('an action removed during a turn, after the model chose it, answers ACTION_UNAVAILABLE', async () => {
    const context = setup();
    const { session, llm } = start(context, [
      () => {
        context.page.unregister('add_note');
        return { content: '', toolCalls: [toolCall('c1', 'add_note')] };
      },
      { content: 'ok' },
    ]);
    await session.send('Note it');
    expect(context.noteHandler).not.toHaveBeenCalled();
    expect(toolMessages(llm.requests[1])[0].error).toMatchObject({ code: 'ACTION_UNAVAILABLE' });
    expect(toolMessages(llm.requests[1])[0].error.message).toMatch(/^add_note is not available/);
  });

  it('a page action named handoff registered later is left out; the built-in keeps the name', async () => {
    const context = setup();
    const options = toRuntimeOptions(context.page);
    context.page.register(
      defineAction({ id: 'handoff', description: 'Page handoff', parameters: { type: 'object' }, handler: () => 1 }),
    );
    const handoffs = options.tools().filter((tool) => tool.name === 'handoff');
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]!.description).not.toBe('Page handoff');
  });
});
