// AgentSession: one conversation's history, summary and event stream. send() calls run one at a time, each a
// SessionRun (session-run.ts: the turn loop); cancel() aborts the model request in flight and the run stops at the
// next safe point. A reply's tool calls run in tool-round.ts, compaction in session-compaction.ts, checkpoints and
// resumed runs in session-continuity.ts.
import type { Message } from '@aalis/schema-message';
import type { Checkpoints } from './checkpoint-store.js';
import { cancelled } from './clock.js';
import type { ResolvedAgentConfig } from './config.js';
import { type ConversationState, freshState, lastUserMessage } from './conversation-state.js';
import { callListener } from './listener-errors.js';
import { Observable } from './observable.js';
import { noRedaction, type Redact, redactEventBody, redactValue } from './redaction.js';
import {
  buildCheckpoint,
  restoreConversation,
  resumeRun,
  saveProblemNotice,
  settleUnfinished,
} from './session-continuity.js';
import type { RuntimeEvent, SessionEvent, SessionEventBody } from './session-events.js';
import { prepareRun, type RunHost, SessionRun } from './session-run.js';
import type { AgentSessionOptions, SendResult, SessionSnapshot, SessionStatus } from './session-types.js';

export type { AgentSessionOptions, SendResult, SessionSnapshot, SessionStatus } from './session-types.js';

/** Stands for "no new input": the run a checkpoint restored carries on. */
const RESUME = Symbol('resume');
/** session.retry(): the run starts again from the history as it stands, no message added. */
const RETRY = Symbol('retry');

export class AgentSession extends Observable<SessionSnapshot> {
  readonly id: string;
  private state = freshState();
  private currentStatus: SessionStatus = 'idle';
  private queue: Promise<unknown> = Promise.resolve();
  private controller: AbortController | undefined;
  /** Incremented by cancel() and reset(): sends queued before it do not run. */
  private cancelEpoch = 0;
  /** Sends and retries of this cancel epoch not started yet: the session is running from the send() call on. */
  private waiting = 0;
  private sequence = 0;

  constructor(private readonly options: AgentSessionOptions) {
    super();
    this.id = options.id;
    this.listenerLocale = options.config.locale;
    if (options.checkpoints) {
      this.restore(options.checkpoints);
      options.checkpoints.onOutsideChange(() => this.persist());
    }
  }

  /** Whether cross-document checkpoints are enabled: config.continuity on and a storage to keep them in. */
  get continuity(): boolean {
    return this.options.checkpoints?.available === true;
  }

  /** Adds the user message and runs the loop; waits for earlier sends first. */
  send(input: string): Promise<SendResult> {
    const epoch = this.cancelEpoch;
    this.addWaiting();
    const run = this.queue.then(() => this.run(input, epoch));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs again from the history as it stands, after a run that ended with an error: the person's last message is
   * answered again without being added a second time (a dock's retry button). Waits for earlier sends first, as
   * send() does. Without any user message in the history nothing runs (NOTHING_TO_RETRY).
   */
  retry(): Promise<SendResult> {
    const epoch = this.cancelEpoch;
    this.addWaiting();
    const run = this.queue.then(() => this.run(RETRY, epoch));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Aborts the model request in flight; the run stops at the next safe point and queued sends do not start. */
  cancel(): void {
    this.cancelEpoch++;
    const hadWaiting = this.waiting > 0;
    this.waiting = 0;
    if (this.controller) {
      this.controller.abort(cancelled(this.options.config.locale));
      this.setStatus('cancelled');
    } else if (hadWaiting) {
      this.setStatus('cancelled');
    }
  }

  /**
   * Clears messages, summary, events, continuity state and run counters, cancelling a run in progress. The
   * confirmation and handoff queues (not part of this package yet) and telemetry are the host's to clear.
   */
  reset(): void {
    this.cancel();
    this.state = freshState();
    this.sequence = 0;
    this.currentStatus = 'idle';
    // Always: an idle session's snapshot still held the old events.
    this.changed();
    this.persist(); // the fresh state is empty: the checkpoint is removed
  }

  /** 'running' from a send() (or retry()) call until its run ends, though it may still wait for an earlier one. */
  status(): SessionStatus {
    return this.waiting > 0 ? 'running' : this.currentStatus;
  }

  /** The stored event list, oldest first; not capped. */
  events(): readonly SessionEvent[] {
    return this.getSnapshot().events;
  }

  /** The history the next request is built from (after compaction) and the current summary. */
  history(): { messages: readonly Message[]; summary: string } {
    return { messages: [...this.state.messages], summary: this.state.summary };
  }

  protected buildSnapshot(): SessionSnapshot {
    return Object.freeze({
      id: this.id,
      status: this.status(),
      events: Object.freeze([...this.state.events]),
      messageCount: this.state.messages.length,
      summary: this.state.summary,
      continuity: this.continuity,
    });
  }

  private async run(input: string | typeof RESUME | typeof RETRY, epoch: number): Promise<SendResult> {
    const state = this.state;
    const interrupted = state.checkpoint.interrupted;
    state.checkpoint.interrupted = undefined;
    if (epoch !== this.cancelEpoch) return { outcome: 'cancelled', turns: 0 };
    // From here the run is in progress (or ends at once): the send no longer waits.
    if (input !== RESUME) this.waiting--;
    try {
      return await this.runStarted(state, input, interrupted);
    } finally {
      // A run that ended before setting 'running' (not ready, a refused setting): its send's 'running' ends here.
      this.statusMayHaveChanged();
    }
  }

  private async runStarted(
    state: ConversationState,
    input: string | typeof RESUME | typeof RETRY,
    interrupted: ConversationState['checkpoint']['interrupted'],
  ): Promise<SendResult> {
    const prepared = prepareRun(this.options, input === RETRY && lastUserMessage(state.messages) === undefined);
    if ('refused' in prepared) {
      if (prepared.event) this.emit(state, prepared.event);
      return prepared.refused;
    }
    const controller = new AbortController();
    this.controller = controller;
    if (input !== RESUME) {
      // A restored run that was cancelled before it resumed: its calls get results, the history stays valid.
      settleUnfinished(state, this.options.config.locale, (callId, name, result) =>
        this.pushToolMessage(state, callId, name, result),
      );
      state.turnsInRun = 0;
    }
    this.setStatus('running');
    if (typeof input === 'string') {
      // Stored redacted: a value the page marks sensitive never reaches the model, even when the user types it.
      state.messages.push({ role: 'user', content: this.redactor()(input), timestamp: this.options.clock.now() });
      this.emit(state, { type: 'message', role: 'user', text: input });
    }
    const run = new SessionRun(this.runHost(state, prepared.config), state, controller.signal);
    try {
      const firstTurn =
        input === RESUME
          ? await resumeRun({
              state,
              interrupted,
              signal: controller.signal,
              tools: this.options.tools,
              round: run.roundContext(),
            })
          : 1;
      return await run.turns(firstTurn);
    } catch (error) {
      return run.failed(error);
    } finally {
      if (this.controller === controller) this.controller = undefined;
      if (this.currentStatus === 'running') this.setStatus('idle');
    }
  }

  /** What a run writes through, bound to the state it belongs to. */
  private runHost(state: ConversationState, config: ResolvedAgentConfig): RunHost {
    return {
      sessionId: this.id,
      options: this.options,
      config,
      emit: (body) => this.emit(state, body),
      deliver: (event) => this.deliver(event),
      redactor: () => this.redactor(),
      pushToolMessage: (callId, name, result) => this.pushToolMessage(state, callId, name, result),
    };
  }

  /**
   * Stores a call's result, redacted by value: a handler that echoes a restored sensitive value, or a PostToolUse
   * replacement that adds one, leaves only the marker (strings first, then the JSON text for numbers).
   */
  private pushToolMessage(state: ConversationState, callId: string, name: string, result: unknown): void {
    const redact = this.redactor();
    const content = redact(JSON.stringify(redactValue(result, redact)));
    state.messages.push({ role: 'tool', toolCallId: callId, name, content });
    if (state === this.state) this.persist();
  }

  /** Stores and announces an event, unless reset() replaced the state the run belongs to. */
  private emit(state: ConversationState, body: SessionEventBody): void {
    if (state !== this.state) return;
    // Redacted by value: a hook's reason, an error message or the user's own text may carry a sensitive value.
    const redacted = redactEventBody(body, this.redactor());
    const event = {
      ...redacted,
      seq: ++this.sequence,
      at: this.options.clock.now(),
      sessionId: this.id,
    } as SessionEvent;
    state.events.push(event);
    this.changed();
    this.persist();
    this.deliver(event);
  }

  /** A listener that throws is reported once and never breaks the run. */
  private deliver(event: RuntimeEvent): void {
    const { onEvent, config } = this.options;
    if (onEvent) callListener(onEvent, event, { locale: config.locale, redact: this.redactor() });
  }

  /** The page's current redactor (built from the values it shows now), or none. */
  private redactor(): Redact {
    return this.options.redactor?.() ?? noRedaction;
  }

  private addWaiting(): void {
    this.waiting++;
    this.statusMayHaveChanged();
  }

  /** Tells the listeners when status() is no longer what the snapshot says (a new identity only on change). */
  private statusMayHaveChanged(): void {
    if (this.getSnapshot().status !== this.status()) this.changed();
  }

  private setStatus(status: SessionStatus): void {
    if (this.currentStatus === status) return;
    this.currentStatus = status;
    this.changed();
    this.persist();
  }

  // ── Continuity: cross-document checkpoints (see checkpoint.ts) ──

  /** Takes over the conversation a previous document of this tab left (or says why not); a run it left carries on. */
  private restore(checkpoints: Checkpoints): void {
    const state = this.state;
    const resume = restoreConversation({
      loaded: checkpoints.load(this.id),
      state,
      locale: this.options.config.locale,
      setSequence: (sequence) => {
        this.sequence = sequence;
      },
      emit: (body) => this.emit(state, body),
    });
    if (!resume) return;
    // After the new page had a task to declare its actions and mount its views; a send() meanwhile waits for it.
    const epoch = this.cancelEpoch;
    const resumed = this.queue
      .then(() => this.options.clock.sleep(0))
      .then(() => (state === this.state ? this.run(RESUME, epoch) : undefined));
    this.queue = resumed.catch(() => undefined);
  }

  /** Schedules a checkpoint write (coalesced: one per task); a write's problem is said once, when it starts. */
  private persist(): void {
    const checkpoints = this.options.checkpoints;
    if (!checkpoints) return;
    const { id, options } = this;
    checkpoints.save(
      id,
      () =>
        buildCheckpoint({
          state: this.state,
          sessionId: id,
          savedAt: options.clock.now(),
          sequence: this.sequence,
          running: this.currentStatus === 'running',
          awaitingConfirmation: (callId) => checkpoints.awaitingConfirmation(id, callId),
        }),
      (outcome) => {
        const state = this.state;
        const notice = saveProblemNotice(state, outcome, options.config.locale, checkpoints.maxBytes);
        if (notice) this.emit(state, notice);
      },
    );
  }
}
