// The whole page's state and actions, framework-free: login (the one-time link's token exchanged, then removed
// from the address), the connection, the session list, the selected session (its conversation, settings and
// usage models, one subscription), the models list, and the owner's admin data. Components render snapshots and
// call these methods; everything goes through SessionClient (docs/session-protocol.md).
import { type Locale, withErrorCode } from '@aalis/core';
import type {
  Account,
  CommandView,
  ConnectionState,
  Limits,
  LogView,
  McpServerView,
  ModelView,
  PluginView,
  PreferencesView,
  ServerFeatures,
  SessionClient,
  SessionSummary,
  Subscription,
  SubscriptionHandlers,
  UsageEntry,
} from '@aalis/session-client';
import type { SendAttachment, SendPreview } from './attachment-checks.js';
import { ConversationModel } from './conversation-model.js';
import { SettingsModel } from './settings-model.js';
import { Store } from './store.js';

/** Log records kept in the admin view. */
export const MAX_LOG_RECORDS = 500;

export type AppPhase = 'starting' | 'login-needed' | 'ready';

/** How long an informational notice (a command's answer) stays. */
export const INFO_NOTICE_MS = 8000;

export interface AppNotice {
  id: number;
  code?: string;
  message: string;
  /** `info`: what a command answered (「没有可压缩的消息。」); otherwise a coded error. */
  tone?: 'info';
}

export interface AdminSnapshot {
  plugins: readonly PluginView[];
  /** The MCP servers' states (empty when the MCP client does not run). */
  mcp: readonly McpServerView[];
  preferences?: PreferencesView;
  logs: readonly LogView[];
}

export interface AppSnapshot {
  phase: AppPhase;
  loginError?: { code: string; message: string };
  account?: Account;
  limits?: Limits;
  /** What the host offers beyond chat (hello.features): recording a voice message. */
  features?: ServerFeatures;
  hostLocale?: 'zh-CN' | 'en';
  connection: ConnectionState;
  sessions: readonly SessionSummary[];
  selectedId?: string;
  /**
   * Changes when the conversation on screen is another one (a session picked, a new chat opened), not when a new
   * chat becomes its session on the first send: the composer and the conversation keep their state then.
   */
  chatKey: number;
  /** The model picked for the new chat before it has a session (`<provider>/<model>`; undefined: the default). */
  draftModel?: string;
  view: 'chat' | 'admin' | 'workflows' | 'memory';
  models: readonly ModelView[];
  /** The service's default model (`models.list`), named beside the new chat's model picker. */
  defaultModel?: string;
  /** A search hit to show: the conversation scrolls to this stored message once it is loaded. */
  focus?: { sessionId: string; messageId: string; nonce: number };
  /** The slash commands this account may run (`commands.list`, fetched when the composer first gets a `/`). */
  commands?: readonly CommandView[];
  usage?: UsageEntry;
  admin: AdminSnapshot;
  notices: readonly AppNotice[];
}

/** Where the page is: the address bar's search string and a way to rewrite it without reloading. */
export interface PageLocation {
  search(): string;
  replace(search: string): void;
}

function codedError(error: unknown): { code: string; message: string } {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : 'AALIS_WEBUI_CLIENT_ERROR',
    message: typeof message === 'string' ? message : String(error),
  };
}

const LOGIN_CODES = new Set(['AALIS_WEBUI_LOGIN_REQUIRED', 'AALIS_WEBUI_LOGIN_EXPIRED']);

export class AppModel extends Store<AppSnapshot> {
  conversation: ConversationModel | undefined;
  settings: SettingsModel | undefined;
  private subscription: Subscription | undefined;
  private stopFollowing: (() => void) | undefined;
  private state: Omit<AppSnapshot, 'connection'> = {
    phase: 'starting',
    chatKey: 0,
    sessions: [],
    view: 'chat',
    models: [],
    admin: { plugins: [], mcp: [], logs: [] },
    notices: [],
  };
  private noticeCounter = 0;
  private commandsAsked = false;
  /** The language the server writes this connection's errors in (hello.locale, then locale.set's answer). */
  private serverLocale: Locale = 'zh-CN';
  /** Tells this page's sends apart from another tab's (clientMessageId). */
  private readonly pageId = Math.random().toString(36).slice(2, 10);
  private readonly disposers: Array<() => void> = [];

  constructor(
    readonly client: SessionClient,
    private readonly location: PageLocation,
  ) {
    super();
  }

  /** Logs in with the link's token when the address has one, then connects and loads the list. */
  async start(): Promise<void> {
    const params = new URLSearchParams(this.location.search());
    const token = params.get('token');
    if (token !== null) {
      params.delete('token');
      // The token is single-use: it leaves the address (and the history) before anything else happens.
      this.location.replace(params.toString());
      try {
        await this.client.login(token);
      } catch (error) {
        const refused = codedError(error);
        // A used link is harmless when this browser is already logged in (a reload of the old address).
        if (!(await this.loggedIn())) return this.update({ phase: 'login-needed', loginError: refused });
      }
    }
    this.disposers.push(
      this.client.on('state', (connection) => {
        if (connection === 'logged-out') this.update({ phase: 'login-needed' });
        else this.changed();
      }),
      this.client.on('sessions', ({ change, sessionId, session }) => this.sessionChanged(change, sessionId, session)),
      this.client.on('log', (record) => this.logRecord(record)),
      this.client.on('hello', (hello) => {
        this.serverLocale = hello.locale;
        this.update({
          account: hello.account,
          limits: hello.limits,
          features: hello.features,
          hostLocale: hello.locale,
        });
      }),
    );
    try {
      const hello = await this.client.connect();
      this.serverLocale = hello.locale;
      this.update({
        phase: 'ready',
        account: hello.account,
        limits: hello.limits,
        features: hello.features,
        hostLocale: hello.locale,
      });
    } catch (error) {
      const refused = codedError(error);
      return this.update({ phase: 'login-needed', loginError: LOGIN_CODES.has(refused.code) ? undefined : refused });
    }
    await Promise.all([this.refreshSessions(), this.refreshModels()]);
    // The page is usable from 'ready' on: a reader who opened another page or a session while the list loaded is
    // not thrown back to a new chat.
    if (this.state.view !== 'chat' || this.state.selectedId !== undefined) return;
    const wanted = new URLSearchParams(this.location.search()).get('session');
    const asked = this.state.sessions.find((session) => session.id === wanted);
    // Without a session in the address the page lands in a new chat, ready to type (Open WebUI, LobeChat).
    if (asked) await this.select(asked.id);
    else this.newChat();
  }

  dispose(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
    void this.subscription?.unsubscribe().catch(() => undefined);
    this.client.close();
  }

  async refreshSessions(): Promise<void> {
    await this.guard(async () => {
      const { sessions } = await this.client.request('sessions.list', {});
      this.update({ sessions });
    });
  }

  async refreshModels(): Promise<void> {
    await this.guard(async () => {
      const { models, defaultModel } = await this.client.request('models.list', {});
      this.update({ models, defaultModel });
    });
  }

  /**
   * Opens a new chat: no session exists until its first message is sent, so opening and leaving new chats leaves
   * no empty sessions behind.
   */
  newChat(): void {
    void this.subscription?.unsubscribe().catch(() => undefined);
    this.subscription = undefined;
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    this.conversation = undefined;
    this.settings = undefined;
    const params = new URLSearchParams(this.location.search());
    params.delete('session');
    this.location.replace(params.toString());
    const chatKey =
      this.state.selectedId === undefined && this.state.view === 'chat' ? this.state.chatKey : this.state.chatKey + 1;
    this.update({ selectedId: undefined, view: 'chat', usage: undefined, draftModel: undefined, chatKey });
  }

  /**
   * The reader picked a language: the server writes in it from now on (this connection and the next), and what it
   * wrote before in the other language is asked for again — the settings' labels and notes, the models, the
   * commands, and the open session's usage rows (a fresh subscription brings a new snapshot).
   */
  async useLocale(locale: string): Promise<void> {
    const chosen = await this.guard(() => this.client.setLocale(locale));
    if (chosen === undefined) return;
    this.serverLocale = chosen;
    this.update({ hostLocale: undefined, commands: undefined });
    this.commandsAsked = false;
    await Promise.all([this.refreshModels(), this.settings?.load()]);
    const sessionId = this.state.selectedId;
    if (sessionId && this.conversation) {
      // Subscribing again replaces the subscription (on the server as in the client): no unsubscribe in between,
      // which would end the new one.
      this.subscription = this.client.subscribe(sessionId, this.subscriptionHandlers(sessionId, this.conversation));
    }
  }

  /** Fetches the palette's commands once (a failure leaves the palette closed; the commands still work typed). */
  loadCommands(): void {
    if (this.commandsAsked) return;
    this.commandsAsked = true;
    void this.client
      .request('commands.list', this.state.selectedId ? { sessionId: this.state.selectedId } : {})
      .then(({ commands }) => this.update({ commands }))
      .catch(() => {
        this.commandsAsked = false;
      });
  }

  /** The model the new chat will use (`<provider>/<model>`), or undefined for the default. */
  pickDraftModel(model: string | undefined): void {
    this.update({ draftModel: model === '' ? undefined : model });
  }

  /** Opens a session: one subscription (timeline, then events), its settings, the usage snapshot that follows. */
  async select(sessionId: string, { fromDraft = false }: { fromDraft?: boolean } = {}): Promise<void> {
    if (this.state.selectedId === sessionId && this.conversation) return this.update({ view: 'chat' });
    // The switch happens at once (what is typed next goes to this session); the old subscription ends after.
    const previous = this.subscription;
    const conversation = new ConversationModel(sessionId);
    const summary = this.state.sessions.find((candidate) => candidate.id === sessionId);
    const settings = new SettingsModel(
      sessionId,
      {
        get: (params) => this.client.request('settings.get', params),
        options: (params) => this.client.request('settings.options', params),
        set: (params) => this.client.request('settings.set', params),
        reset: (params) => this.client.request('settings.reset', params),
      },
      // An IM room's settings may also be written for its venue or for its whole platform.
      summary?.kind === 'room' && summary.venue !== undefined ? ['session', 'venue', 'platform'] : ['session'],
    );
    this.conversation = conversation;
    this.settings = settings;
    this.update({
      selectedId: sessionId,
      view: 'chat',
      usage: undefined,
      chatKey: fromDraft ? this.state.chatKey : this.state.chatKey + 1,
    });
    const params = new URLSearchParams(this.location.search());
    params.set('session', sessionId);
    this.location.replace(params.toString());
    this.subscription = this.client.subscribe(sessionId, this.subscriptionHandlers(sessionId, conversation));
    void previous?.unsubscribe().catch(() => undefined);
    this.markRead(sessionId);
    // The open session's own live events say first whether a turn runs; the list row follows them.
    let running = false;
    this.stopFollowing?.();
    this.stopFollowing = conversation.subscribe(() => {
      const now = conversation.getSnapshot().runningTurnId !== undefined;
      if (now === running || this.conversation !== conversation) return;
      running = now;
      this.update({
        sessions: this.state.sessions.map((session) =>
          session.id === sessionId ? { ...session, running: now } : session,
        ),
      });
    });
    await Promise.all([this.subscription.ready.catch((error) => this.notify(error)), settings.load()]);
  }

  /** The new chat's session, created on its first send with the model picked for it. */
  private async materialiseDraft(): Promise<string> {
    const { session } = await this.client.request('session.create', {});
    this.sessionChanged('upsert', session.id, session);
    const model = this.state.draftModel;
    if (model !== undefined)
      await this.client.request('settings.set', { sessionId: session.id, key: 'llm', value: model });
    // Not awaited: the subscription's timeline and the settings arrive while the message goes out.
    void this.select(session.id, { fromDraft: true });
    return session.id;
  }

  /** Deletes a session (and its children) through the session manager; a running turn stops there. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.guard(async () => {
      const { deleted } = await this.client.request('delete', { sessionId });
      for (const id of deleted) this.sessionChanged('removed', id);
    });
  }

  /** Sends a message; true when the server took it (the composer clears only then, so nothing typed is lost). */
  async send(text: string, attachments: SendAttachment[], previews: SendPreview[]): Promise<boolean> {
    let sessionId = this.state.selectedId;
    if (sessionId === undefined) {
      try {
        sessionId = await this.materialiseDraft();
      } catch (error) {
        this.notify(error);
        return false;
      }
    }
    const conversation = this.conversation;
    if (!conversation) return false;
    const key = `${Date.now().toString(36)}-${++this.noticeCounter}`;
    // Ours, so a stored command's event (which carries it) replaces this page's bubble of it.
    const clientMessageId = `${this.pageId}-${key}`;
    conversation.sending(
      key,
      {
        text,
        attachments: previews.map((preview) => ({ type: preview.kind, url: preview.url, name: preview.name })),
        sender: this.state.account
          ? { userId: this.state.account.userId, displayName: this.state.account.displayName }
          : undefined,
      },
      clientMessageId,
    );
    try {
      const { messageId, routed, reply } = await this.client.send({
        sessionId,
        text,
        clientMessageId,
        ...(attachments.length > 0 ? { attachments } : {}),
      });
      conversation.sendAccepted(key, messageId, { routed, reply });
      return true;
    } catch (error) {
      conversation.sendFailed(key);
      this.notify(error);
      return false;
    }
  }

  /**
   * Sends the edited text of a turn's message as a new turn: the server rolls back that turn and every later one
   * (they stay readable as an earlier version). The editor closes only once the server took it.
   */
  async editTurn(turnId: string, text: string): Promise<boolean> {
    const sessionId = this.state.selectedId;
    const conversation = this.conversation;
    if (!sessionId || !conversation || text.trim() === '') return false;
    const done = await this.guard(() =>
      this.client.request('turn.edit', {
        sessionId,
        turnId,
        text,
        clientMessageId: `${this.pageId}-edit-${++this.noticeCounter}`,
      }),
    );
    if (done) conversation.cancelEdit();
    return done !== undefined;
  }

  /** Her last reply again: the turn is rolled back and its inputs run as a new turn. */
  async regenerate(turnId: string): Promise<void> {
    const sessionId = this.state.selectedId;
    if (sessionId) await this.guard(() => this.client.request('turn.regenerate', { sessionId, turnId }));
  }

  /** A failed or stopped turn's inputs run again as a new turn. */
  async retry(turnId: string): Promise<void> {
    const sessionId = this.state.selectedId;
    if (sessionId) await this.guard(() => this.client.request('turn.retry', { sessionId, turnId }));
  }

  async stop(): Promise<void> {
    const sessionId = this.state.selectedId;
    if (sessionId) await this.guard(() => this.client.request('stop', { sessionId }));
  }

  /** A new title (1–200 characters); the list follows the server's `sessions` frame. */
  async renameSession(sessionId: string, title: string): Promise<boolean> {
    const trimmed = title.trim();
    if (trimmed === '') return false;
    const done = await this.guard(() => this.client.request('sessions.rename', { sessionId, title: trimmed }));
    if (done) this.sessionChanged('upsert', done.session.id, done.session);
    return done !== undefined;
  }

  async pinSession(sessionId: string, pinned: boolean): Promise<void> {
    const done = await this.guard(() => this.client.request('sessions.pin', { sessionId, pinned }));
    if (done) this.sessionChanged('upsert', done.session.id, done.session);
  }

  /** Archived sessions leave the list (the open one stays open) and are still found by the search. */
  async archiveSession(sessionId: string, archived: boolean): Promise<void> {
    const done = await this.guard(() => this.client.request('sessions.archive', { sessionId, archived }));
    if (done) this.sessionChanged('upsert', done.session.id, done.session);
  }

  /** The session's whole archive as a file (Markdown or JSON), for the page to download. */
  async exportSession(
    sessionId: string,
    format: 'markdown' | 'json',
  ): Promise<{ filename: string; mimeType: string; content: string } | undefined> {
    return this.guard(() => this.client.request('sessions.export', { sessionId, format }));
  }

  /** Opens the session of a search hit and shows that message. */
  async openAt(sessionId: string, messageId: string): Promise<void> {
    this.noticeCounter += 1;
    this.update({ focus: { sessionId, messageId, nonce: this.noticeCounter } });
    await this.select(sessionId);
  }

  async clear(): Promise<void> {
    const sessionId = this.state.selectedId;
    if (sessionId) this.inform(await this.guard(() => this.client.request('clear', { sessionId })));
  }

  /** Compacts now; what /compact answers (compacted, nothing to compact, busy, failed) is shown as a notice. */
  async compact(): Promise<void> {
    const sessionId = this.state.selectedId;
    if (sessionId) this.inform(await this.guard(() => this.client.request('compact', { sessionId })));
  }

  /** The owner's admin area: plugins and their states, service preferences, live logs. */
  async openAdmin(): Promise<void> {
    this.update({ view: 'admin' });
    await this.guard(async () => {
      const [{ plugins }, { servers }, { preferences }, { recent }] = await Promise.all([
        this.client.request('admin.plugins', {}),
        this.client.request('admin.mcp', {}),
        this.client.request('admin.preferences.get', {}),
        this.client.request('logs.subscribe', {}),
      ]);
      this.update({ admin: { plugins, mcp: servers, preferences, logs: recent.slice(-MAX_LOG_RECORDS) } });
    });
  }

  /** The owner's workflows page (its own model: workflows-model.ts). */
  openWorkflows(): void {
    if (this.state.view === 'admin') void this.client.request('logs.unsubscribe', {}).catch(() => undefined);
    this.update({ view: 'workflows' });
  }

  closeWorkflows(): void {
    this.update({ view: 'chat' });
  }

  /** The 记忆 page (its own model: memory-model.ts); every account sees it, with its own memory. */
  openMemory(): void {
    if (this.state.view === 'admin') void this.client.request('logs.unsubscribe', {}).catch(() => undefined);
    this.update({ view: 'memory' });
  }

  closeMemory(): void {
    this.update({ view: 'chat' });
  }

  /**
   * An error as one line of text, for the places that show a string: the sentence, then the code in the brackets of
   * the sentence's language (the server wrote it in this connection's locale).
   */
  describeError(error: unknown): string {
    const { code, message } = codedError(error);
    return code ? withErrorCode(message, code, this.serverLocale) : message;
  }

  async closeAdmin(): Promise<void> {
    this.update({ view: 'chat' });
    await this.client.request('logs.unsubscribe', {}).catch(() => undefined);
  }

  async refreshPlugins(): Promise<void> {
    await this.guard(async () => {
      const [{ plugins }, { servers }] = await Promise.all([
        this.client.request('admin.plugins', {}),
        this.client.request('admin.mcp', {}),
      ]);
      this.update({ admin: { ...this.state.admin, plugins, mcp: servers } });
    });
  }

  /** Sets (or, with null, removes) the global preference of the llm service: the default model. */
  async setDefaultModel(model: string | null): Promise<void> {
    await this.guard(async () => {
      const { preferences } = await this.client.request('admin.preferences.set', { service: 'llm', value: model });
      this.update({ admin: { ...this.state.admin, preferences } });
      await this.settings?.load();
    });
  }

  /** Ends this login (the cookie is cleared, this browser's sockets close); the login page follows. */
  async logout(): Promise<void> {
    await this.guard(() => this.client.logout());
    this.update({ phase: 'login-needed', loginError: undefined });
  }

  dismiss(id: number): void {
    this.update({ notices: this.state.notices.filter((notice) => notice.id !== id) });
  }

  /** Shows a command's reply (clear, compact) as an informational notice. */
  private inform(result: { reply: string } | undefined): void {
    if (!result || result.reply === '') return;
    this.noticeCounter += 1;
    const notice: AppNotice = { id: this.noticeCounter, message: result.reply, tone: 'info' };
    this.update({ notices: [...this.state.notices, notice].slice(-5) });
    // An answer, not a problem: it goes by itself (errors stay until dismissed).
    setTimeout(() => this.dismiss(notice.id), INFO_NOTICE_MS);
  }

  /** Shows a coded error the page cannot act on itself. */
  notify(error: unknown): void {
    const { code, message } = codedError(error);
    if (LOGIN_CODES.has(code)) {
      this.update({ phase: 'login-needed' });
      return;
    }
    this.noticeCounter += 1;
    this.update({ notices: [...this.state.notices, { id: this.noticeCounter, code, message }].slice(-5) });
  }

  protected buildSnapshot(): AppSnapshot {
    return { ...this.state, connection: this.client.connectionState };
  }

  private subscriptionHandlers(sessionId: string, conversation: ConversationModel): SubscriptionHandlers {
    return {
      timeline: (timeline) => conversation.load(timeline),
      event: (event) => {
        conversation.apply(event);
        if (this.conversation !== conversation) return;
        if (event.type === 'usage') this.update({ usage: event.usage });
        else if (event.type === 'settings.changed') void this.settings?.load();
        else if (event.type === 'session.deleted') this.sessionChanged('removed', sessionId);
      },
    };
  }

  private async loggedIn(): Promise<boolean> {
    try {
      await this.client.me();
      return true;
    } catch {
      return false;
    }
  }

  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.notify(error);
      return undefined;
    }
  }

  private markRead(sessionId: string): void {
    const sessions = this.state.sessions.map((session) =>
      session.id === sessionId && session.unread ? { ...session, unread: false } : session,
    );
    this.update({ sessions });
  }

  private sessionChanged(change: 'upsert' | 'removed', sessionId: string, session?: SessionSummary): void {
    let sessions = this.state.sessions.filter((known) => known.id !== sessionId);
    // An archived session leaves the list (search still finds it); the open one stays open.
    if (change === 'upsert' && session?.archived) {
      this.update({ sessions });
      return;
    }
    if (change === 'upsert' && session) {
      const shown = sessionId === this.state.selectedId ? { ...session, unread: false } : session;
      sessions = [shown, ...sessions];
    }
    const patch: Partial<AppSnapshot> = { sessions };
    if (change === 'removed' && sessionId === this.state.selectedId) {
      void this.subscription?.unsubscribe().catch(() => undefined);
      this.subscription = undefined;
      this.conversation = undefined;
      this.settings = undefined;
      patch.selectedId = undefined;
      patch.usage = undefined;
      // The deleted conversation gives way to a new chat.
      patch.chatKey = this.state.chatKey + 1;
      patch.draftModel = undefined;
    }
    this.update(patch);
  }

  private logRecord(record: LogView): void {
    const logs = [...this.state.admin.logs, record].slice(-MAX_LOG_RECORDS);
    this.update({ admin: { ...this.state.admin, logs } });
  }

  private update(patch: Partial<AppSnapshot>): void {
    const { connection: _connection, ...rest } = patch;
    this.state = { ...this.state, ...rest };
    this.changed();
  }
}
