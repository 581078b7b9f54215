// The dock as people judge it, on the shared model every adapter renders: the launcher's open state remembered per
// page, the thinking and waiting states, what a confirmation card shows, and errors with a retry. The adapters' browser
// tests check the same in Chromium.
import type { ModelRequest } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { createPlingCore } from './create-pling-core.js';
import { DockModel } from './dock-model.js';
import { DOCK_OPEN_KEY_PREFIX, type DockOpenStorage } from './dock-open-state.js';
import { sensitive } from './sensitive.js';
import { nextConfirmation, scriptedLlm, toolCall } from './test-helpers.case.js';

const EMAIL = 'ann@example.com';

function memoryStorage(): DockOpenStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

function ordersPage(llm: ReturnType<typeof scriptedLlm>, storage = memoryStorage()) {
  const core = createPlingCore({ agent: { config: { model: 'test-model', locale: 'en' }, llm } });
  core.page.state('customer', () => ({ name: 'Ann', email: sensitive(EMAIL, 'email') }));
  core.page.register(
    defineAction({
      id: 'email_invoice',
      description: 'Emails the invoice',
      parameters: { type: 'object', properties: { to: { type: 'string' }, invoice: { type: 'number' } } },
      danger: true,
      handler: ({ to }) => ({ sent: typeof to === 'string' }),
    }),
  );
  return { core, storage, dock: new DockModel({ core, openStorage: storage }) };
}

describe('DockModel', () => {
  it('the launcher opens and closes the dock and it is remembered per page; a confirmation opens it', async () => {
    const storage = memoryStorage();
    const { core, dock } = ordersPage(
      scriptedLlm([{ toolCalls: [toolCall('c1', 'email_invoice', { invoice: 7 })] }]),
      storage,
    );
    expect(dock.getSnapshot().open).toBe(true);
    dock.setOpen(false);
    expect(dock.getSnapshot().open).toBe(false);
    expect(storage.items.get(`${DOCK_OPEN_KEY_PREFIX}default:/`)).toBe('closed');
    // The same page again (a reload): closed; another page: open.
    expect(new DockModel({ core, openStorage: storage }).getSnapshot().open).toBe(false);
    const elsewhere = createPlingCore({
      agent: { config: { model: 'test-model', locale: 'en' }, llm: scriptedLlm([]) },
    });
    const other = new DockModel({ core: elsewhere, openStorage: storage, openPage: '/invoices' });
    expect(other.getSnapshot().open).toBe(true);
    dock.toggleOpen();
    expect(dock.getSnapshot().open).toBe(true);
    dock.setOpen(false);
    const sent = dock.send('email invoice 7');
    const request = await nextConfirmation(core.page);
    expect(dock.getSnapshot().open).toBe(true);
    dock.reject(request.id);
    await sent;
  });

  it('defaultOpen: false starts folded until the person opens it, and their choice wins after that', () => {
    const storage = memoryStorage();
    const core = createPlingCore({ agent: { config: { model: 'test-model', locale: 'en' }, llm: scriptedLlm([]) } });
    const folded = new DockModel({ core, openStorage: storage, defaultOpen: false });
    expect(folded.getSnapshot().open).toBe(false);
    folded.setOpen(true);
    expect(new DockModel({ core, openStorage: storage, defaultOpen: false }).getSnapshot().open).toBe(true);
    // Storage that throws (blocked, full) only means nothing is remembered.
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const unremembered = new DockModel({ core, openStorage: broken });
    unremembered.setOpen(false);
    expect(unremembered.getSnapshot().open).toBe(false);
  });

  it('thinking until the first token; a call waiting for confirmation says so, not "Running"', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answer!: () => void;
    const firstToken = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const llm = scriptedLlm([
      async () => {
        await firstToken;
        return { content: '', toolCalls: [toolCall('c1', 'email_invoice', { to: '[redacted:email]', invoice: 7 })] };
      },
      async (request: ModelRequest) => {
        await gate;
        request.onTextDelta?.('Sent.');
        return { content: 'Sent.', toolCalls: [] };
      },
    ] as never);
    const { core, dock } = ordersPage(llm);
    expect(dock.getSnapshot().thinking).toBe(false);
    const sent = dock.send('email invoice 7 to Ann');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(dock.getSnapshot()).toMatchObject({ busy: true, thinking: true });
    answer();
    const request = await nextConfirmation(core.page);
    const waiting = dock.getSnapshot();
    expect(waiting.thinking).toBe(false);
    expect(waiting.operations).toEqual([
      expect.objectContaining({ key: 'c1', status: 'waiting', text: 'Waiting for your confirmation: email_invoice' }),
    ]);
    dock.approve(request.id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(dock.getSnapshot()).toMatchObject({
      thinking: true,
      operations: [expect.objectContaining({ status: 'ok' })],
    });
    release();
    await sent;
    expect(dock.getSnapshot()).toMatchObject({ busy: false, thinking: false });
  });

  it('an operation the person stopped says it was cancelled, not "failed (CANCELLED)"', async () => {
    const llm = scriptedLlm([
      { toolCalls: [toolCall('c1', 'email_invoice', { invoice: 7 })] },
      { content: 'Not sent.' },
      { toolCalls: [toolCall('c2', 'email_invoice', { invoice: 8 })] },
    ]);
    const { core, dock } = ordersPage(llm);
    const declined = dock.send('email invoice 7');
    dock.reject((await nextConfirmation(core.page)).id);
    await declined;
    const stopped = dock.send('email invoice 8');
    await nextConfirmation(core.page);
    dock.cancel();
    await stopped;
    expect(dock.getSnapshot().operations.map(({ status, text }) => ({ status, text }))).toEqual([
      { status: 'failed', text: 'You declined: email_invoice' },
      { status: 'failed', text: 'email_invoice cancelled' },
    ]);
  });

  it('the card shows the person their own sensitive value and is announced; the model only saw the marker', async () => {
    const llm = scriptedLlm([
      { toolCalls: [toolCall('c1', 'email_invoice', { to: '[redacted:email]', invoice: 7 })] },
      { content: 'Sent.' },
    ]);
    const { core, dock } = ordersPage(llm);
    const sent = dock.send('email invoice 7 to Ann');
    const request = await nextConfirmation(core.page);
    const [card] = dock.getSnapshot().confirmations;
    expect(card!.shownArguments).toEqual({ to: EMAIL, invoice: 7 });
    expect(card!.arguments).toEqual({ to: '[redacted:email]', invoice: 7 });
    expect(request.arguments).toEqual({ to: '[redacted:email]', invoice: 7 });
    expect(dock.getSnapshot().announcement).toBe('Your confirmation is needed (dangerous action): email_invoice');
    dock.approve(request.id);
    await sent;
    expect(dock.getSnapshot().announcement).toBe('');
    expect(JSON.stringify(llm.requests)).not.toContain(EMAIL);
  });

  it('the person sees their own typed sensitive value in their bubble; the model and the events keep the marker', async () => {
    const llm = scriptedLlm([{ content: 'Noted.' }]);
    const { core, dock } = ordersPage(llm);
    await dock.send(`mail it to ${EMAIL} please`);
    const [mine, reply] = dock.getSnapshot().messages;
    expect(mine).toMatchObject({ role: 'user', text: `mail it to ${EMAIL} please` });
    expect(reply).toMatchObject({ role: 'assistant', text: 'Noted.' });
    expect(JSON.stringify(llm.requests)).not.toContain(EMAIL);
    expect(JSON.stringify(core.session().events())).not.toContain(EMAIL);
    expect(core.session().events()[0]).toMatchObject({ type: 'message', text: 'mail it to [redacted:email] please' });
    // Clearing forgets it.
    dock.clear();
    expect(dock.getSnapshot().messages).toEqual([]);
  });

  it('an error is worded for the person, keeps code and message for the developer, and retry sends again', async () => {
    const llm = scriptedLlm([
      () => {
        throw Object.assign(new Error('fetch failed: ECONNREFUSED 127.0.0.1:9'), { code: 'NETWORK_ERROR' });
      },
      { content: 'Here you are.' },
    ]);
    const { dock } = ordersPage(llm);
    await dock.send('show order 7');
    const failed = dock.getSnapshot();
    expect(failed.error?.summary).toBe(failed.texts.errorSummary(failed.error!.code));
    expect(failed.error?.summary).not.toContain(failed.error!.code);
    expect(failed.error?.message).toContain('ECONNREFUSED');
    expect(failed.canRetry).toBe(true);
    await dock.retry();
    const retried = dock.getSnapshot();
    expect(retried.error).toBeUndefined();
    expect(retried.canRetry).toBe(false);
    expect(retried.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'show order 7'],
      ['assistant', 'Here you are.'],
    ]);
    // The session ran again from the same history: the model saw the person's message once, not twice.
    const users = llm.requests[1]!.messages.filter((message) => message.role === 'user');
    expect(users.map((message) => message.content)).toEqual(['show order 7']);
  });

  it('no retry for an error only the configuration can fix', async () => {
    const core = createPlingCore({ agent: { config: { locale: 'zh-CN' } } });
    const dock = new DockModel({ core, openStorage: null });
    await dock.send('你好');
    const state = dock.getSnapshot();
    expect(state.error?.code).toBe('NOT_CONFIGURED');
    expect(state.error?.summary).toBe('助手还没配置好，暂时不能回答。请联系网站管理员。');
    expect(state.canRetry).toBe(false);
  });
});
