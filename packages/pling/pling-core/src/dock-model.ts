// The AgentDock's state and actions, framework-free: every adapter renders this one model (Vue 3 and React with
// their components, vanilla and Vue 2.7 with the DOM dock), so the four docks behave the same. The chat comes
// from the session's events plus the streamed text of the reply being written; recent operations from its tool,
// retry and compaction events; confirmations and handoffs from the page's queues; the optional debug trace from
// the runtime's trace. Observable like the rest of Pling (subscribe / getSnapshot).
import {
  type AgentConfig,
  type AgentRuntime,
  type AgentSession,
  mergeAgentConfig,
  Observable,
  type SessionEvent,
  type SessionStatus,
  type TraceEntry,
} from '@plingjs/agent';
import type { ConfirmationRequest } from './confirmation-queue.js';
import type { PlingCore } from './create-pling-core.js';
import { type DerivedEvents, type DockMessage, type DockOperation, deriveDockEvents } from './dock-derive.js';
import { DockOpenState, type DockOpenStorage } from './dock-open-state.js';
import { type DockTexts, dockTexts } from './dock-texts.js';
import type { HandoffRequest } from './handoff-queue.js';
import type { ModelSettings, ModelSettingsState } from './model-settings.js';
import { restoreSensitive } from './sensitive-vault.js';

export { type DockMessage, type DockOperation, MAX_DOCK_OPERATIONS } from './dock-derive.js';

/** A confirmation as the card shows it. */
export interface DockConfirmation extends ConfirmationRequest {
  /**
   * The arguments as the person knows them: markers of the page's own sensitive values replaced by the real values
   * (the person sees their own data; the model, the queue's events and `arguments` keep the markers).
   */
  shownArguments: Record<string, unknown>;
}

/** An error as the dock shows it: a sentence for the person, the code and message for the developer. */
export interface DockError {
  code: string;
  /** The technical message (shown behind a disclosure). */
  message: string;
  /** What the person using the page is told, in the dock's locale. */
  summary: string;
}

export interface DockState {
  title: string;
  status: SessionStatus;
  /** A run is in progress (the stop button applies). */
  busy: boolean;
  /** NOT_CONFIGURED's message while the runtime cannot send (nothing is sent until the config is fixed). */
  notConfigured?: string;
  messages: readonly DockMessage[];
  operations: readonly DockOperation[];
  confirmations: readonly DockConfirmation[];
  handoffs: readonly HandoffRequest[];
  /** The last error since the last message the user sent. */
  error?: DockError;
  /** After an error: the retry button answers the person's last message again (`retry()`, `session.retry()`). */
  canRetry: boolean;
  /** A run is waiting for the model's first token (or its next reply after tool calls): the "thinking" state. */
  thinking: boolean;
  /** A floating dock is open (false: folded to its launcher); remembered per page. Inline docks ignore it. */
  open: boolean;
  /** What the dock's live region reads out now (a confirmation waiting), or ''. */
  announcement: string;
  /** The last notice (max-turns, cancelled) since the last message the user sent. */
  notice?: string;
  /** The bounded request trace, when the dock was given `debug`. */
  trace?: readonly TraceEntry[];
  /** The model settings panel's state, when the dock shows it (see DockModelOptions.modelSettings). */
  modelSettings?: ModelSettingsState;
  texts: DockTexts;
}

export interface DockModelOptions {
  core: PlingCore;
  sessionId?: string;
  /** Header text; default the locale's 「助手」 / "Assistant". */
  title?: string;
  /** The dock's `config` property: merged into the runtime's configuration when the runtime is created. */
  config?: AgentConfig;
  /** Shows the last `maxCalls` model requests (turns the runtime's trace on). */
  debug?: { maxCalls: number };
  /** Open when nothing is remembered for this page (default true), and where it is remembered (localStorage). */
  defaultOpen?: boolean;
  openStorage?: DockOpenStorage | null;
  /** The page the open state is remembered for; default `location.pathname`. */
  openPage?: string;
  /** Show the model settings panel; default: when createPling was given `modelSettings`. */
  modelSettings?: boolean;
}

/** Errors a retry cannot fix: the configuration must change first. */
const NOT_RETRYABLE = new Set(['NOT_CONFIGURED', 'INVALID_CONFIG', 'DISPOSED']);
/** The person's own messages with sensitive values remembered for their bubbles (the newest). */
const MAX_TYPED = 50;

export class DockModel extends Observable<DockState> {
  readonly runtime: AgentRuntime;
  readonly session: AgentSession;
  /** The settings the panel changes (the Pling's one, shared by its docks), when this dock shows them. */
  readonly modelSettings: ModelSettings | undefined;
  private readonly core: PlingCore;
  private readonly texts: DockTexts;
  private readonly title: string;
  private readonly debug: boolean;
  private readonly disposers: Array<() => void> = [];
  private streamed = '';
  /**
   * The streamed reply keeps its key when it becomes the stored message (seq → key), so the adapters keep its
   * element and the rendered Markdown is not rebuilt when the stream ends.
   */
  private streamNumber = 1;
  private readonly streamKeys = new Map<number, string>();
  private derivedFrom: readonly SessionEvent[] | undefined;
  private derived: DerivedEvents = { messages: [], operations: [] };
  private readonly openState: DockOpenState;
  private readonly shown = new WeakMap<ConfirmationRequest, DockConfirmation>();
  /** Calls the person declined at this dock (their operation line says so). */
  private readonly declined = new Set<string>();
  /**
   * What the person typed here, by the redacted text the session stores and shows: their own bubble shows their
   * words, sensitive values included, while the model, events and checkpoints keep the markers. Only in memory.
   */
  private readonly typed = new Map<string, string>();
  /** The error event the retry button answered: hidden from then on (a new failure is a new event). */
  private retried: SessionEvent | undefined;

  constructor(options: DockModelOptions) {
    super();
    this.core = options.core;
    this.texts = dockTexts(options.core.locale);
    this.title = options.title ?? this.texts.title;
    this.debug = options.debug !== undefined;
    const overrides = options.debug ? mergeAgentConfig(options.config, { trace: options.debug }) : options.config;
    this.runtime = options.core.runtime(overrides);
    this.session = this.runtime.session(options.sessionId);
    this.openState = new DockOpenState({
      sessionId: this.session.id,
      ...(options.defaultOpen !== undefined && { defaultOpen: options.defaultOpen }),
      ...(options.openStorage !== undefined && { storage: options.openStorage }),
      ...(options.openPage !== undefined && { page: options.openPage }),
    });
    const refresh = () => this.changed();
    const seenConfirmations = new Set<string>();
    this.disposers.push(
      this.session.subscribe(refresh),
      options.core.page.confirmations.subscribe(() => {
        // A confirmation waiting in a folded dock would wait unseen: a new one opens the dock.
        for (const request of options.core.page.confirmations.getSnapshot()) {
          if (seenConfirmations.has(request.id)) continue;
          seenConfirmations.add(request.id);
          if (request.sessionId === undefined || request.sessionId === this.session.id) this.openState.set(true);
        }
        refresh();
      }),
      options.core.page.handoffs.subscribe(refresh),
      options.core.onEvent((event) => {
        if (event.sessionId !== this.session.id) return;
        if (event.type === 'text-delta') this.streamed += event.text;
        else if (event.type === 'message' || event.type === 'error' || event.type === 'notice') {
          if (this.streamed !== '') {
            if (event.type === 'message' && event.role === 'assistant') {
              this.streamKeys.set(event.seq, `s${this.streamNumber}`);
              this.derivedFrom = undefined; // the list may have been derived before this key was known
            }
            this.streamNumber++;
          }
          this.streamed = '';
        } else return;
        this.changed();
      }),
    );
    if (this.debug) this.disposers.push(this.runtime.trace.subscribe(refresh));
    const settings = options.core.modelSettings;
    this.modelSettings = (options.modelSettings ?? settings.offered) ? settings : undefined;
    if (this.modelSettings) this.disposers.push(this.modelSettings.subscribe(refresh));
  }

  /** Sends a message (ignored when blank); a send while a run is in progress waits for it, as session.send does. */
  async send(text: string): Promise<void> {
    const input = text.trim();
    if (input === '') return;
    const stored = this.core.page.redactText(input);
    if (stored !== input) {
      this.typed.delete(stored); // re-inserted as the newest, so the oldest go first
      this.typed.set(stored, input);
      if (this.typed.size > MAX_TYPED) this.typed.delete(this.typed.keys().next().value as string);
    }
    await this.session.send(input);
  }

  /**
   * The retry button: the session answers the person's last message again (session.retry(), so the model does not
   * see it twice); the error it answers is no longer shown. Nothing when there is nothing to retry or a run is going.
   */
  async retry(): Promise<void> {
    const state = this.getSnapshot();
    if (!state.canRetry || this.derived.lastUserText === undefined) return;
    this.retried = this.derived.errorEvent;
    this.changed();
    await this.session.retry();
  }

  /** The launcher and the close button: opens or folds a floating dock, remembered for this page. */
  setOpen(open: boolean): void {
    if (this.openState.set(open)) this.changed();
  }

  toggleOpen(): void {
    this.setOpen(!this.openState.open);
  }

  /** The stop button: aborts the request in flight; the run ends at the next safe point. */
  cancel(): void {
    this.session.cancel();
  }

  /** The clear button: session reset, confirmation and handoff queues cleared, telemetry (and trace) reset. */
  clear(): void {
    this.streamed = '';
    this.declined.clear();
    this.typed.clear();
    this.core.clear(this.session.id);
    if (this.debug) this.runtime.trace.clear();
    this.changed();
  }

  approve(id: string): boolean {
    return this.core.page.confirmations.approve(id);
  }

  reject(id: string, reason?: string): boolean {
    const callId = this.core.page.confirmations.getSnapshot().find((request) => request.id === id)?.callId;
    const rejected = this.core.page.confirmations.reject(id, reason);
    // The call's line then says the person declined it, not that it failed with a code.
    if (rejected && callId !== undefined) this.declined.add(callId);
    return rejected;
  }

  resolveHandoff(id: string, note?: string): boolean {
    return this.core.page.handoffs.resolve(id, note);
  }

  dispose(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }

  protected buildSnapshot(): DockState {
    const session = this.session.getSnapshot();
    if (session.events !== this.derivedFrom) {
      // A reset starts the seqs again: keys remembered for the old ones no longer apply.
      if (session.events.length < (this.derivedFrom?.length ?? 0)) this.streamKeys.clear();
      this.derived = deriveDockEvents(session.events, this.texts, this.streamKeys);
      this.derivedFrom = session.events;
    }
    const derivedMessages =
      this.typed.size === 0
        ? this.derived.messages
        : this.derived.messages.map((message) => {
            const typed = message.role === 'user' ? this.typed.get(message.text) : undefined;
            return typed === undefined ? message : { ...message, text: typed };
          });
    const messages =
      this.streamed === ''
        ? derivedMessages
        : [
            ...derivedMessages,
            { key: `s${this.streamNumber}`, role: 'assistant' as const, text: this.streamed, streaming: true },
          ];
    const readiness = this.runtime.readiness;
    const busy = session.status === 'running';
    const confirmations = this.core.page.confirmations
      .getSnapshot()
      .filter((request) => request.sessionId === undefined || request.sessionId === this.session.id)
      .map((request) => this.shownConfirmation(request));
    const waiting = new Set(confirmations.map((request) => request.callId));
    const operations = this.derived.operations.map((operation) => {
      if (operation.status === 'running' && waiting.has(operation.key)) {
        return { ...operation, status: 'waiting' as const, text: this.texts.toolWaiting(operation.actionId ?? '') };
      }
      if (operation.status === 'failed' && this.declined.has(operation.key)) {
        return { ...operation, text: this.texts.toolDeclined(operation.actionId ?? '') };
      }
      return operation;
    });
    const working = operations.some((operation) => operation.status === 'running' || operation.status === 'waiting');
    const newest = confirmations.at(-1);
    const error =
      this.derived.errorEvent !== undefined && this.derived.errorEvent === this.retried
        ? undefined
        : this.derived.error;
    const state: DockState = {
      title: this.title,
      status: session.status,
      busy,
      messages,
      operations,
      confirmations,
      handoffs: this.core.page.handoffs.getSnapshot(),
      canRetry:
        !busy && error !== undefined && !NOT_RETRYABLE.has(error.code) && this.derived.lastUserText !== undefined,
      thinking: busy && this.streamed === '' && !working && confirmations.length === 0,
      open: this.openState.open,
      announcement: newest ? this.texts.confirmAnnouncement(newest.actionId, newest.danger) : '',
      texts: this.texts,
    };
    if (!readiness.ready) state.notConfigured = readiness.error.message;
    if (error) state.error = { ...error, summary: this.texts.errorSummary(error.code) };
    if (this.derived.notice) state.notice = this.derived.notice;
    if (this.debug) state.trace = this.runtime.trace.getSnapshot();
    if (this.modelSettings) state.modelSettings = this.modelSettings.getSnapshot();
    return Object.freeze(state);
  }

  /** The request with `shownArguments`, made once per request (its arguments never change while it waits). */
  private shownConfirmation(request: ConfirmationRequest): DockConfirmation {
    let shown = this.shown.get(request);
    if (!shown) {
      let revealed: Record<string, unknown>;
      try {
        revealed = restoreSensitive(request.arguments, this.core.page.sensitiveValues(), this.core.locale) as Record<
          string,
          unknown
        >;
      } catch {
        revealed = request.arguments; // an ambiguous marker: the person sees it as the model wrote it
      }
      shown = Object.freeze({ ...request, shownArguments: revealed });
      this.shown.set(request, shown);
    }
    return shown;
  }
}
