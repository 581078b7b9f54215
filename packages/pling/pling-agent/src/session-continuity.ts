// Continuity across documents (see checkpoint.ts): what a session's state is written as, and how a run a checkpoint
// restored carries on in the new document — or is settled when it never resumes.
import { CHECKPOINT_VERSION, type SessionCheckpoint } from './checkpoint.js';
import { continuityTexts } from './checkpoint-texts.js';
import { type ConversationState, currentTools, unfinishedCalls } from './conversation-state.js';
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
