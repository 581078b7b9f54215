// Continuity across documents (see checkpoint.ts): what a session's state is written as, and how a run a checkpoint
// restored carries on in the new document — or is settled when it never resumes.
import { CHECKPOINT_VERSION, type SessionCheckpoint } from './checkpoint.js';
import type { Checkpoints, SaveOutcome } from './checkpoint-store.js';
import { continuityTexts } from './checkpoint-texts.js';
import { type ConversationState, currentTools, unfinishedCalls } from './conversation-state.js';
import type { SessionEventBody } from './session-events.js';
import type { Locale } from './texts.js';
import { TEXTS } from './texts.js';
import { cancelledResult, type ToolSource } from './tool.js';
import { runToolRound, type ToolRoundContext } from './tool-round.js';

/** The checkpoint of a session's state; undefined when there is nothing to keep (the checkpoint is removed). */
export function buildCheckpoint({
  state,
  sessionId,
  savedAt,
  sequence,
  running,
  awaitingConfirmation,
}: {
  state: ConversationState;
  sessionId: string;
  savedAt: number;
  sequence: number;
  /** A run is in progress: the checkpoint says where it stands, so the next document can carry it on. */
  running: boolean;
  /** Whether a call of the run waits for the person's confirmation now. */
  awaitingConfirmation: (callId: string) => boolean;
}): SessionCheckpoint | undefined {
  const { messages, summary, events, turnsInRun } = state;
  if (messages.length === 0 && events.length === 0) return undefined;
  const checkpoint: SessionCheckpoint = {
    version: CHECKPOINT_VERSION,
    sessionId,
    savedAt,
    messages: [...messages],
    summary,
    events: [...events],
    sequence,
    droppedEvents: 0,
  };
  const restored = state.checkpoint.interrupted;
  if (running || restored) {
    const awaiting = (unfinishedCalls(messages)?.calls ?? [])
      .map((call) => call.id)
      .filter((callId) => restored?.awaitingConfirmation.has(callId) || awaitingConfirmation(callId));
    checkpoint.run = { turns: turnsInRun, awaitingConfirmation: awaiting };
  }
  return checkpoint;
}

/**
 * Carries on the run a checkpoint restored; returns the turn to continue with. Calls of the last reply without a
 * result: one that waited for a confirmation is asked again (its handler never ran), one that was running gets
 * an interrupted result (it may have had effects), and the calls after it never started, so they run now.
 * Without such calls the run was waiting for the model: that turn's request is sent again.
 */
export async function resumeRun({
  state,
  interrupted,
  signal,
  tools,
  round,
}: {
  state: ConversationState;
  interrupted: { awaitingConfirmation: ReadonlySet<string> } | undefined;
  signal: AbortSignal;
  tools: ToolSource;
  /** Bound to `state`. */
  round: ToolRoundContext;
}): Promise<number> {
  const turn = Math.max(1, state.turnsInRun);
  const unfinished = unfinishedCalls(state.messages);
  // Waiting for the model: after a turn's tool results the next turn's request, else this turn's, is sent again.
  if (!unfinished) return state.messages.at(-1)?.role === 'tool' ? turn + 1 : turn;
  const started = new Map<string, string>();
  for (const event of state.events) if (event.type === 'tool-call') started.set(event.callId, event.id);
  let calls = unfinished.calls;
  const first = calls[0]!;
  const firstId = started.get(first.id);
  if (firstId !== undefined && !interrupted?.awaitingConfirmation.has(first.id)) {
    const message = continuityTexts(round.config.locale).interruptedTool;
    const base = { callId: first.id, toolName: first.function.name, turn, id: firstId };
    round.emit({ type: 'tool-result', ...base, ok: false, code: 'INTERRUPTED' });
    round.pushResult(first.id, first.function.name, { error: { code: 'INTERRUPTED', message } });
    calls = calls.slice(1);
  }
  if (calls.length > 0) {
    const reply = { ...unfinished.assistant, toolCalls: calls };
    const alreadyAnnounced = new Set(started.keys());
    await runToolRound({
      context: round,
      assistant: reply,
      turn,
      signal,
      tools: currentTools(tools).byName,
      alreadyAnnounced,
    });
  }
  return turn + 1;
}

/** Gives every call of the last reply that has no result a CANCELLED one (a restored run that never resumed). */
export function settleUnfinished(
  state: ConversationState,
  locale: Locale,
  pushResult: (callId: string, name: string, result: unknown) => void,
): void {
  const unfinished = unfinishedCalls(state.messages);
  if (!unfinished) return;
  const errors = TEXTS[locale].errors;
  for (const call of unfinished.calls) pushResult(call.id, call.function.name, cancelledResult(errors));
}

/**
 * Puts the conversation a previous document of this tab left into `state` (its events without older "restored"
 * lines, the sequence carried on) and says so, or says why it was discarded. Whether a run it left is to carry on.
 */
export function restoreConversation({
  loaded,
  state,
  locale,
  setSequence,
  emit,
}: {
  loaded: ReturnType<Checkpoints['load']>;
  state: ConversationState;
  locale: Locale;
  setSequence: (sequence: number) => void;
  emit: (body: SessionEventBody) => void;
}): boolean {
  const texts = continuityTexts(locale);
  if (loaded.kind === 'none') return false;
  if (loaded.kind === 'discarded') {
    const message = texts.discarded(loaded.problem);
    emit({ type: 'continuity', outcome: 'discarded', problem: loaded.problem, message });
    return false;
  }
  const { checkpoint } = loaded;
  state.messages = checkpoint.messages;
  state.summary = checkpoint.summary;
  // One "restored" line, the latest: a conversation carried through many pages would otherwise list one per page.
  state.events = checkpoint.events.filter((event) => event.type !== 'continuity' || event.outcome !== 'restored');
  setSequence(checkpoint.sequence);
  const message = texts.restored(checkpoint.messages.filter((item) => item.role !== 'tool').length);
  emit({ type: 'continuity', outcome: 'restored', message });
  if (!checkpoint.run) return false;
  state.turnsInRun = checkpoint.run.turns;
  state.checkpoint.interrupted = { awaitingConfirmation: new Set(checkpoint.run.awaitingConfirmation) };
  return true;
}

/** The notice of a checkpoint write's problem when it starts (once); a successful write ends it. */
export function saveProblemNotice(
  state: ConversationState,
  outcome: SaveOutcome,
  locale: Locale,
  maxBytes: number,
): SessionEventBody | undefined {
  const problem = outcome.ok ? undefined : outcome.problem;
  if (problem === state.checkpoint.problem) return undefined;
  state.checkpoint.problem = problem;
  if (!problem) return undefined;
  const message = continuityTexts(locale).notSaved(problem, maxBytes);
  return { type: 'continuity', outcome: 'not-saved', problem, message };
}
