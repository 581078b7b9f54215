import type { SessionClient, SessionSummary, SubscriptionHandlers } from '@aalis/session-client';
import { describe, expect, it, vi } from 'vitest';
import { AppModel, INFO_NOTICE_MS, type PageLocation } from './app-model.js';

const account = { userId: 'owner', displayName: 'Owner', owner: true, level: 100 };
const limits = { maxMessageChars: 10, maxAttachmentBytes: 100, maxAttachments: 2, maxFrameBytes: 1000 };
const hello = { type: 'hello' as const, protocol: 1, serverId: 's1', account, limits, locale: 'en' as const };

function summary(id: string, extra: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    kind: 'web',
    platform: 'webui',
    children: [],
    createdAt: 0,
    updatedAt: 0,
    unread: true,
    running: false,
    writable: true,
    canSend: true,
    ...extra,
  };
}

/** A stand-in for SessionClient that records requests and lets the test push frames. */
function fakeClient({ loginFails = false, loggedIn = true } = {}) {
  const calls: string[] = [];
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const handlers = new Map<string, SubscriptionHandlers>();
  let sessions = [summary('webui:owner:a', { updatedAt: 2 }), summary('webui:owner:b', { updatedAt: 1 })];
  const client = {
    connectionState: 'open',
    on(kind: string, listener: (value: unknown) => void) {
      const set = listeners.get(kind) ?? new Set();
      set.add(listener);
      listeners.set(kind, set);
      return () => set.delete(listener);
    },
    async login(token: string) {
      calls.push(`login:${token}`);
      if (loginFails) throw Object.assign(new Error('The link was used already.'), { code: 'AALIS_WEBUI_LINK_USED' });
      return { account, csrfToken: 'c' };
    },
    async me() {
      calls.push('me');
      if (!loggedIn) throw Object.assign(new Error('Log in.'), { code: 'AALIS_WEBUI_LOGIN_REQUIRED' });
      return { account, csrfToken: 'c', serverId: 's1', protocol: 1 };
    },
    async connect() {
      calls.push('connect');
      if (!loggedIn) throw Object.assign(new Error('Log in.'), { code: 'AALIS_WEBUI_LOGIN_REQUIRED' });
      return hello;
    },
    async request(type: string, params: Record<string, unknown>) {
      calls.push(`${type}${params.sessionId ? `:${params.sessionId}` : ''}`);
      switch (type) {
        case 'sessions.list':
          return { sessions };
        case 'models.list':
          return { models: [] };
        case 'settings.get':
          return { settings: [] };
        case 'delete':
          sessions = sessions.filter((session) => session.id !== params.sessionId);
          return { deleted: [params.sessionId] };
        case 'session.create':
          return { session: summary('webui:owner:new', { unread: false, updatedAt: 3 }) };
        default:
          return {};
      }
    },
    async send(params: { sessionId: string; text: string }) {
      calls.push(`send:${params.sessionId}:${params.text}`);
      if (params.text === 'refuse')
        throw Object.assign(new Error('Too long.'), { code: 'AALIS_WEBUI_MESSAGE_TOO_LONG' });
      return { messageId: 'm1', duplicate: false };
    },
    subscribe(sessionId: string, subscriptionHandlers: SubscriptionHandlers) {
      calls.push(`subscribe:${sessionId}`);
      handlers.set(sessionId, subscriptionHandlers);
      return {
        sessionId,
        seq: 0,
        ready: Promise.resolve(),
        unsubscribe: async () => {
          calls.push(`unsubscribe:${sessionId}`);
        },
      };
    },
    close() {
      calls.push('close');
    },
  };
  const emit = (kind: string, value: unknown) => {
    for (const listener of listeners.get(kind) ?? []) listener(value);
  };
  return { client: client as unknown as SessionClient, calls, handlers, emit };
}

function pageAt(search: string): PageLocation & { current: () => string } {
  let current = search;
  return { search: () => current, replace: (next) => (current = next ? `?${next}` : ''), current: () => current };
}

describe('AppModel', () => {
  it('exchanges the link token, takes it out of the address before anything else, and lands in a new chat', async () => {
    const { client, calls } = fakeClient();
    const location = pageAt('?token=v1.secret');
    const app = new AppModel(client, location);
    await app.start();
    expect(calls.slice(0, 2)).toEqual(['login:v1.secret', 'connect']);
    expect(location.current()).toBe('');
    const snapshot = app.getSnapshot();
    expect(snapshot).toMatchObject({ phase: 'ready', account, limits, hostLocale: 'en', selectedId: undefined });
    // Nothing is created or subscribed before the first message.
    expect(calls.some((call) => call.startsWith('session.create') || call.startsWith('subscribe'))).toBe(false);
    expect(snapshot.sessions.find((session) => session.id === 'webui:owner:a')?.unread).toBe(true);
  });

  it('leaves a reader who opened another page while the list loaded where she went', async () => {
    const { client, calls } = fakeClient();
    let listed: () => void = () => undefined;
    const request = client.request.bind(client);
    const slowList = Object.assign(Object.create(client) as SessionClient, {
      request: (async (type: string, params: Record<string, unknown>) => {
        if (type === 'sessions.list') await new Promise<void>((resolve) => (listed = resolve));
        return request(type as 'sessions.list', params as never);
      }) as SessionClient['request'],
    });
    const app = new AppModel(slowList, pageAt(''));
    const started = app.start();
    await vi.waitFor(() => expect(calls).toContain('models.list'));
    expect(app.getSnapshot().phase).toBe('ready');
    app.openWorkflows();
    listed();
    await started;
    expect(app.getSnapshot().view).toBe('workflows');
  });

  it('creates the new chat’s session on its first send, with the model picked for it, and keeps the composer', async () => {
    const { client, calls } = fakeClient();
    const location = pageAt('');
    const app = new AppModel(client, location);
    await app.start();
    const before = app.getSnapshot().chatKey;
    app.pickDraftModel('openai/vision-model');
    expect(await app.send('hello there', [], [])).toBe(true);
    expect(calls.filter((call) => call === 'session.create')).toHaveLength(1);
    expect(calls.indexOf('settings.set:webui:owner:new')).toBeLessThan(
      calls.indexOf('send:webui:owner:new:hello there'),
    );
    expect(calls.indexOf('subscribe:webui:owner:new')).toBeLessThan(calls.indexOf('send:webui:owner:new:hello there'));
    expect(app.getSnapshot()).toMatchObject({ selectedId: 'webui:owner:new', chatKey: before });
    expect(location.current()).toBe('?session=webui%3Aowner%3Anew');
    expect(app.conversation!.getSnapshot().pending.map((input) => input.text)).toEqual(['hello there']);
    // Another new chat: nothing created until it is used; picking a session then is a different conversation.
    app.newChat();
    expect(app.getSnapshot()).toMatchObject({ selectedId: undefined, draftModel: undefined });
    expect(location.current()).toBe('');
    expect(calls.filter((call) => call === 'session.create')).toHaveLength(1);
    await app.select('webui:owner:a');
    expect(app.getSnapshot().chatKey).toBeGreaterThan(before);
  });

  it('a used link with a live login goes on; without one it shows the login page with the reason', async () => {
    const reused = fakeClient({ loginFails: true });
    const app = new AppModel(reused.client, pageAt('?token=old'));
    await app.start();
    expect(app.getSnapshot().phase).toBe('ready');
    const refused = fakeClient({ loginFails: true, loggedIn: false });
    const stranger = new AppModel(refused.client, pageAt('?token=old'));
    await stranger.start();
    expect(stranger.getSnapshot()).toMatchObject({
      phase: 'login-needed',
      loginError: { code: 'AALIS_WEBUI_LINK_USED' },
    });
    const none = fakeClient({ loggedIn: false });
    const fresh = new AppModel(none.client, pageAt(''));
    await fresh.start();
    expect(fresh.getSnapshot()).toMatchObject({ phase: 'login-needed', loginError: undefined });
  });

  it('reopens the session named in the address, and follows list pushes', async () => {
    const { client, emit } = fakeClient();
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Ab'));
    await app.start();
    expect(app.getSnapshot().selectedId).toBe('webui:owner:b');
    emit('sessions', { change: 'upsert', sessionId: 'webui:owner:c', session: summary('webui:owner:c') });
    expect(app.getSnapshot().sessions.map((session) => session.id)[0]).toBe('webui:owner:c');
    emit('sessions', { change: 'removed', sessionId: 'webui:owner:b' });
    expect(app.getSnapshot()).toMatchObject({ selectedId: undefined });
    expect(app.conversation).toBeUndefined();
  });

  it('sends as pending, and a refused send leaves a coded notice and nothing pending', async () => {
    const { client, calls } = fakeClient();
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Aa'));
    await app.start();
    expect(await app.send('hello', [], [])).toBe(true);
    expect(calls).toContain('send:webui:owner:a:hello');
    expect(app.conversation!.getSnapshot().pending).toHaveLength(1);
    expect(await app.send('refuse', [], [])).toBe(false);
    expect(app.conversation!.getSnapshot().pending).toHaveLength(1);
    expect(app.getSnapshot().notices).toEqual([expect.objectContaining({ code: 'AALIS_WEBUI_MESSAGE_TOO_LONG' })]);
  });

  it('shows what clear and compact answered as an informational notice (nothing to compact, compacted)', async () => {
    const { client, calls } = fakeClient();
    const replies = ['There is nothing to compact.', 'This session’s message history is cleared.'];
    const request = client.request.bind(client);
    client.request = (async (type: string, params: Record<string, unknown>) => {
      if (type !== 'compact' && type !== 'clear') return request(type as never, params as never);
      calls.push(type);
      return { reply: replies.shift() };
    }) as typeof client.request;
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Aa'));
    await app.start();
    vi.useFakeTimers();
    await app.compact();
    await app.clear();
    expect(calls).toEqual(expect.arrayContaining(['compact', 'clear']));
    expect(app.getSnapshot().notices).toEqual([
      expect.objectContaining({ message: 'There is nothing to compact.', tone: 'info' }),
      expect.objectContaining({ message: 'This session’s message history is cleared.', tone: 'info' }),
    ]);
    // They go by themselves; an error stays until dismissed.
    app.notify(Object.assign(new Error('No.'), { code: 'AALIS_WEBUI_FORBIDDEN' }));
    vi.advanceTimersByTime(INFO_NOTICE_MS);
    expect(app.getSnapshot().notices).toEqual([expect.objectContaining({ code: 'AALIS_WEBUI_FORBIDDEN' })]);
    vi.useRealTimers();
  });

  it('switches sessions at once: a message sent right after a switch goes to the new session', async () => {
    const { client, calls } = fakeClient();
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Aa'));
    await app.start();
    const switching = app.select('webui:owner:b');
    expect(app.getSnapshot().selectedId).toBe('webui:owner:b');
    await app.send('hello b', [], []);
    await switching;
    expect(calls).toContain('send:webui:owner:b:hello b');
    expect(calls.indexOf('subscribe:webui:owner:b')).toBeLessThan(calls.indexOf('unsubscribe:webui:owner:a'));
  });

  it('deletes through the server and closes the deleted session into a new chat', async () => {
    const { client, calls } = fakeClient();
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Aa'));
    await app.start();
    const key = app.getSnapshot().chatKey;
    await app.deleteSession('webui:owner:a');
    expect(calls).toContain('delete:webui:owner:a');
    expect(app.getSnapshot().selectedId).toBeUndefined();
    expect(app.getSnapshot().chatKey).toBeGreaterThan(key);
    expect(app.getSnapshot().sessions.map((session) => session.id)).toEqual(['webui:owner:b']);
  });

  it('a usage event reaches the snapshot; a login lost on the way shows the login page', async () => {
    const { client, handlers, emit } = fakeClient();
    const app = new AppModel(client, pageAt('?session=webui%3Aowner%3Aa'));
    await app.start();
    const usage = {
      used: 10,
      contextWindow: 100,
      usageRatio: 0.1,
      maxTokens: 5,
      tokenBudget: 80,
      trimmed: false,
      historyMessages: 0,
      historyLimit: 0,
      parts: [],
    };
    handlers.get('webui:owner:a')!.event!({ type: 'usage', usage }, 3);
    expect(app.getSnapshot().usage).toEqual(usage);
    emit('state', 'logged-out');
    expect(app.getSnapshot().phase).toBe('login-needed');
  });
});
