// One compaction: read the active history, summarise it (merging the previous summary), and append a
// compression-divider carrying the summary, which starts the new active history. One at a time per session; never
// throws: every outcome is a result.
import type { LlmPurpose, ResolvedModel } from '@aalis/api-llm';
import type { MemoryService } from '@aalis/api-memory';
import { AalisError, type Events, type Logger } from '@aalis/core';
import { isControlMessage, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { cacheSharingRequest } from './cache-sharing-request.js';
import type { CompactionReason } from './compaction-rules.js';
import type { ConversationPrompt } from './conversation-prompts.js';
import type { SessionActivity } from './session-activity.js';
import { summarize, summaryOutputTokens, transcriptLabels } from './summarize.js';
import { summaryErrors } from './summary-errors.js';
import { type SummaryStore, summaryOf } from './summary-store.js';

/** Why a compaction ran: a turn-end rule, or /compact. */
export type CompactionTrigger = CompactionReason | 'manual';

export type CompactionResult =
  | { status: 'compacted'; messages: number; summary: string; divider: Message }
  /** The active history has no conversation message. */
  | { status: 'empty' }
  /** Another compaction of the session is running. */
  | { status: 'busy' }
  /** The history kept changing under the compaction (or was rolled back); nothing was written. */
  | { status: 'changed' }
  /** The session was cleared or the plugin stopped meanwhile; nothing was written. */
  | { status: 'cancelled' }
  | { status: 'failed'; error: unknown };

/** Rounds of "summarise what arrived meanwhile" before giving up on a busy session. */
const MAX_ROUNDS = 3;

export interface CompactorDeps {
  memory(): MemoryService;
  activity: SessionActivity;
  store: SummaryStore;
  events: Events;
  log: Logger;
  /** Aborted when the plugin deactivates. */
  signal: AbortSignal;
  /** The model that writes the session's summary (see session-model.ts). */
  model(request: CompactRequest): Promise<ResolvedModel | undefined>;
  purpose(sessionId: string): Promise<LlmPurpose>;
  maxSummaryTokens: number;
  entryMaxChars: number;
  t(key: string, params?: Record<string, string | number>): string;
  /** The session's latest conversation call, whose prompt the summary request starts with when it can. */
  conversationPrompt(sessionId: string): ConversationPrompt | undefined;
  /** How the prompt shows a summary (the head block). */
  summaryBlock(summary: string): string;
}

export interface CompactRequest {
  sessionId: string;
  trigger: CompactionTrigger;
  /** The turn whose end triggered it; stored on the divider so rolling the turn back removes it too. */
  turnId?: string;
  /** Entry platform and venue, for the session settings layers (model). */
  platform?: string;
  venue?: string;
}

const conversation = (messages: readonly Message[]) => messages.filter((message) => !isControlMessage(message));

export class Compactor {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<CompactionResult> }>();

  constructor(private readonly deps: CompactorDeps) {}

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  compact(request: CompactRequest): Promise<CompactionResult> {
    if (this.running.has(request.sessionId)) return Promise.resolve({ status: 'busy' });
    const controller = new AbortController();
    const done = this.run(request, AbortSignal.any([controller.signal, this.deps.signal])).finally(() =>
      this.running.delete(request.sessionId),
    );
    this.running.set(request.sessionId, { controller, done });
    return done;
  }

  /** Stops the compactions of these sessions (`undefined`: all), e.g. when their history was cleared. */
  cancel(sessionIds: readonly string[] | undefined): void {
    for (const [sessionId, entry] of this.running) {
      if (sessionIds === undefined || sessionIds.includes(sessionId)) entry.controller.abort();
    }
  }

  /** Cancels everything and waits for it to settle (graceful shutdown). */
  async drain(): Promise<void> {
    const pending = [...this.running.values()].map((entry) => entry.done);
    this.cancel(undefined);
    await Promise.all(pending);
  }

  private async run(request: CompactRequest, signal: AbortSignal): Promise<CompactionResult> {
    const { sessionId } = request;
    try {
      const result = await this.attempt(request, signal);
      if (result.status === 'compacted') {
        this.deps.log.info('compacted session history', {
          sessionId,
          trigger: request.trigger,
          turnId: request.turnId,
          messages: result.messages,
          summaryChars: result.summary.length,
        });
        this.deps.events.emit('summary:compacted', {
          sessionId,
          trigger: request.trigger,
          turnId: request.turnId,
          messages: result.messages,
          summary: result.summary,
        });
      } else {
        this.deps.log.info(`compaction ended: ${result.status}`, { sessionId, trigger: request.trigger });
      }
      return result;
    } catch (error) {
      if (signal.aborted) return { status: 'cancelled' };
      this.deps.log.warn('compaction failed; the history is left as it is', {
        sessionId,
        trigger: request.trigger,
        turnId: request.turnId,
        code: AalisError.isInstance(error) ? error.code : undefined,
        error: error instanceof Error ? error.message : String(error),
      });
      return { status: 'failed', error };
    }
  }

  /** The cache-sharing request for this compaction, when the conversation's prompt can stand for the history. */
  private shared(
    prompt: ConversationPrompt | undefined,
    resolved: ResolvedModel,
    active: readonly Message[],
    previous: string | undefined,
    sessionId: string,
  ): { messages: Message[]; tools: ConversationPrompt['tools'] } | undefined {
    if (!prompt) return undefined;
    if (prompt.model !== resolved.model.id) {
      this.deps.log.debug('summary model differs from the conversation’s; its prompt cache cannot be shared', {
        sessionId,
        conversation: prompt.model,
        summary: resolved.model.id,
      });
      return undefined;
    }
    const plan = cacheSharingRequest({
      prompt,
      active,
      previous,
      summaryBlock: this.deps.summaryBlock,
      labels: transcriptLabels(this.deps.t),
      entryMaxChars: this.deps.entryMaxChars,
      t: this.deps.t,
      contextWindow: resolved.model.contextWindow,
      maxOutput: summaryOutputTokens(this.deps.maxSummaryTokens, resolved),
    });
    if (plan.status === 'planned') return plan;
    this.deps.log.debug('the summary request does not share the conversation prompt', {
      sessionId,
      reason: plan.reason,
    });
    return undefined;
  }

  private async attempt(request: CompactRequest, signal: AbortSignal): Promise<CompactionResult> {
    const { sessionId } = request;
    const { activity, store } = this.deps;
    const memory = this.deps.memory();
    // The triggering turn is still finishing (we run after its turn:after): read once it has settled.
    await activity.idle(sessionId, signal);
    // Taken before the history is read, so everything the prompt shows is in what is read.
    const prompt = this.deps.conversationPrompt(sessionId);
    const start = await memory.activeStart(sessionId);
    // Indexed reads only: the divider that starts the active history, then the active messages not read yet (the
    // archive before the divider is never read).
    let summary = start > 0 ? summaryOf(await memory.activeDivider(sessionId)) : undefined;
    let compacted = 0;
    let resolved: ResolvedModel | undefined;
    let purpose: LlmPurpose | undefined;
    for (let round = 1; ; round++) {
      // From the second round on, new turns wait while the model folds in what arrived during the first one, so
      // this round lands instead of chasing a busy session (each round is a model call).
      const heldEarly = round > 1 ? await activity.holdTurns(sessionId, signal) : undefined;
      try {
        const fresh = conversation(await memory.read(sessionId, { from: compacted }));
        if (compacted === 0 && fresh.length === 0) return { status: 'empty' };
        if (fresh.length > 0) {
          resolved ??= await this.deps.model(request);
          if (!resolved) throw summaryErrors.AALIS_SUMMARY_NO_MODEL({ sessionId });
          purpose ??= await this.deps.purpose(sessionId);
          // The first round covers the whole active history: it can start with the conversation's own prompt.
          const shared = round === 1 ? this.shared(prompt, resolved, fresh, summary, sessionId) : undefined;
          summary = await summarize({
            resolved,
            sessionId,
            purpose,
            previous: summary,
            messages: fresh,
            maxSummaryTokens: this.deps.maxSummaryTokens,
            entryMaxChars: this.deps.entryMaxChars,
            t: this.deps.t,
            signal,
            shared,
            onSharedEmpty: () =>
              this.deps.log.warn(
                'the summary request sharing the conversation prompt came back empty; using a transcript',
                {
                  sessionId,
                  model: resolved?.model.id,
                },
              ),
          });
          compacted += fresh.length;
        }
        const release = heldEarly ?? (await activity.holdTurns(sessionId, signal));
        try {
          signal.throwIfAborted();
          const [startNow, countNow] = await Promise.all([
            memory.activeStart(sessionId),
            memory.countHistory(sessionId),
          ]);
          if (startNow !== start || countNow < compacted) return { status: 'changed' };
          if (countNow === compacted) {
            const metadata: Record<string, unknown> = { [WellKnownMetadataKeys.Summary]: summary };
            if (request.turnId !== undefined) metadata[WellKnownMetadataKeys.TurnId] = request.turnId;
            const [divider] = await memory.append(sessionId, [
              { role: 'system', content: '', kind: 'compression-divider', metadata },
            ]);
            store.remember(sessionId, await memory.activeStart(sessionId), summary!);
            return { status: 'compacted', messages: compacted, summary: summary!, divider: divider! };
          }
        } finally {
          if (!heldEarly) release();
        }
      } finally {
        heldEarly?.();
      }
      // Messages arrived while the model was writing (inputs released outside turns, another writer): fold them in.
      if (round >= MAX_ROUNDS) return { status: 'changed' };
    }
  }
}
