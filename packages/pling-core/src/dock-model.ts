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
import { type DockTexts, dockTexts } from './dock-texts.js';
import type { HandoffRequest } from './handoff-queue.js';

/** Recent operations kept in the dock (the session's own event list is not capped). */
export const MAX_DOCK_OPERATIONS = 50;

export interface DockMessage {
  key: string;
  role: 'user' | 'assistant';
  text: string;
  /** The reply being written (streamed text so far). */
  streaming: boolean;
}

export interface DockOperation {
  key: string;
  status: 'running' | 'ok' | 'failed' | 'blocked' | 'info';
  /** The line shown, in the dock's locale. */
  text: string;
  at: number;
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
  confirmations: readonly ConfirmationRequest[];
  handoffs: readonly HandoffRequest[];
  /** The last error since the last message the user sent. */
  error?: { code: string; message: string };
  /** The last notice (max-turns, cancelled) since the last message the user sent. */
  notice?: string;
  /** The bounded request trace, when the dock was given `debug`. */
  trace?: readonly TraceEntry[];
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
}

interface Derived {
  messages: DockMessage[];
  operations: DockOperation[];
  error?: { code: string; message: string };
  notice?: string;
}

export class DockModel extends Observable<DockState> {
  readonly runtime: AgentRuntime;
  readonly session: AgentSession;
  private readonly core: PlingCore;
  private readonly texts: DockTexts;
  private readonly title: string;
  private readonly debug: boolean;
  private readonly disposers: Array<() => void> = [];
  private streamed = '';
  private derivedFrom: readonly SessionEvent[] | undefined;
  private derived: Derived = { messages: [], operations: [] };

  constructor(options: DockModelOptions) {
    super();
    this.core = options.core;
    this.texts = dockTexts(options.core.locale);
    this.title = options.title ?? this.texts.title;
    this.debug = options.debug !== undefined;
    const overrides = options.debug ? mergeAgentConfig(options.config, { trace: options.debug }) : options.config;
    this.runtime = options.core.runtime(overrides);
    this.session = this.runtime.session(options.sessionId);
    const refresh = () => this.changed();
    this.disposers.push(
      this.session.subscribe(refresh),
      options.core.page.confirmations.subscribe(refresh),
      options.core.page.handoffs.subscribe(refresh),
      options.core.onEvent((event) => {
        if (event.sessionId !== this.session.id) return;
        if (event.type === 'text-delta') this.streamed += event.text;
        else if (event.type === 'message' || event.type === 'error' || event.type === 'notice') this.streamed = '';
        else return;
        this.changed();
      }),
    );
    if (this.debug) this.disposers.push(this.runtime.trace.subscribe(refresh));
  }

  /** Sends a message (ignored when blank); a send while a run is in progress waits for it, as session.send does. */
  async send(text: string): Promise<void> {
    const input = text.trim();
    if (input === '') return;
    await this.session.send(input);
  }

  /** The stop button: aborts the request in flight; the run ends at the next safe point. */
  cancel(): void {
    this.session.cancel();
  }

  /** The clear button: session reset, confirmation and handoff queues cleared, telemetry (and trace) reset. */
  clear(): void {
    this.streamed = '';
    this.core.clear(this.session.id);
    if (this.debug) this.runtime.trace.clear();
    this.changed();
  }

  approve(id: string): boolean {
    return this.core.page.confirmations.approve(id);
  }

  reject(id: string, reason?: string): boolean {
    return this.core.page.confirmations.reject(id, reason);
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
      this.derived = derive(session.events, this.texts);
      this.derivedFrom = session.events;
    }
    const messages =
      this.streamed === ''
        ? this.derived.messages
        : [
            ...this.derived.messages,
            { key: 'streaming', role: 'assistant' as const, text: this.streamed, streaming: true },
          ];
    const readiness = this.runtime.readiness;
    const state: DockState = {
      title: this.title,
      status: session.status,
      busy: session.status === 'running',
      messages,
      operations: this.derived.operations,
      confirmations: this.core.page.confirmations.getSnapshot(),
      handoffs: this.core.page.handoffs.getSnapshot(),
      texts: this.texts,
    };
    if (!readiness.ready) state.notConfigured = readiness.error.message;
    if (this.derived.error) state.error = this.derived.error;
    if (this.derived.notice) state.notice = this.derived.notice;
    if (this.debug) state.trace = this.runtime.trace.getSnapshot();
    return Object.freeze(state);
  }
}

function derive(events: readonly SessionEvent[], texts: DockTexts): Derived {
  const derived: Derived = { messages: [], operations: [] };
  const byCall = new Map<string, DockOperation>();
  const operation = (op: DockOperation) => {
    derived.operations.push(op);
    return op;
  };
  /** A call's outcome: replaces its running line, or adds one when the call was never announced. */
  const settle = (op: DockOperation) => {
    const running = byCall.get(op.key);
    if (running) Object.assign(running, op);
    else operation(op);
  };
  for (const event of events) {
    switch (event.type) {
      case 'message':
        derived.messages.push({ key: `m${event.seq}`, role: event.role, text: event.text, streaming: false });
        if (event.role === 'user') {
          derived.error = undefined;
          derived.notice = undefined;
        }
        break;
      case 'tool-call':
        byCall.set(
          event.callId,
          operation({ key: event.callId, status: 'running', text: texts.toolRunning(event.id), at: event.at }),
        );
        break;
      case 'tool-result':
        settle({
          key: event.callId,
          status: event.ok ? 'ok' : 'failed',
          text: event.ok ? texts.toolDone(event.id) : texts.toolFailed(event.id, event.code ?? 'TOOL_FAILED'),
          at: event.at,
        });
        break;
      case 'blocked':
        settle({ key: event.callId, status: 'blocked', text: texts.toolBlocked(event.id, event.reason), at: event.at });
        break;
      case 'retry':
        operation({
          key: `e${event.seq}`,
          status: 'info',
          text: texts.retry(event.retry, event.delayMs),
          at: event.at,
        });
        break;
      case 'compacted':
        operation({
          key: `e${event.seq}`,
          status: 'info',
          text: texts.compacted(event.tokensBefore, event.tokensAfter),
          at: event.at,
        });
        break;
      case 'notice':
        derived.notice = event.message;
        break;
      case 'error':
        derived.error = { code: event.code, message: event.message };
        break;
    }
  }
  derived.operations = derived.operations.slice(-MAX_DOCK_OPERATIONS);
  return derived;
}
