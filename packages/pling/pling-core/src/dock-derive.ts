// The chat and recent-operations views of a session's event list, as the dock shows them: messages, one line per
// tool call that goes from running to its outcome, retries and compactions, and the last error or notice since the
// person's last message. Pure, so the model recomputes it only when the event list changes.
import type { SessionEvent } from '@plingjs/agent';
import type { DockTexts } from './dock-texts.js';

/** Recent operations kept in the dock (the session's own event list is not capped). */
export const MAX_DOCK_OPERATIONS = 50;

export interface DockMessage {
  key: string;
  role: 'user' | 'assistant';
  text: string;
  /** The reply being written (streamed text so far). */
  streaming: boolean;
  /** The stream broke off after this much of the reply was shown (MODEL_STREAM_ERROR); views mark it. */
  interrupted?: boolean;
}

export interface DockOperation {
  key: string;
  /** `waiting`: the call waits for the person's confirmation. */
  status: 'running' | 'waiting' | 'ok' | 'failed' | 'blocked' | 'info';
  /** The line shown, in the dock's locale. */
  text: string;
  at: number;
  /** The page action a tool call ran (absent for retries and compactions). */
  actionId?: string;
}

export interface DerivedEvents {
  messages: DockMessage[];
  operations: DockOperation[];
  error?: { code: string; message: string };
  /** The event `error` comes from (a dock hides the one its retry button is answering). */
  errorEvent?: SessionEvent;
  notice?: string;
  /** The text of the person's last message (what the retry button sends again). */
  lastUserText?: string;
}

/** `keys`: message keys by event seq, for messages that were shown under another key while they streamed. */
export function deriveDockEvents(
  events: readonly SessionEvent[],
  texts: DockTexts,
  keys: ReadonlyMap<number, string> = new Map(),
): DerivedEvents {
  const derived: DerivedEvents = { messages: [], operations: [] };
  const byCall = new Map<string, DockOperation>();
  const operation = (op: DockOperation) => {
    derived.operations.push(op);
    return op;
  };
  /** A line of its own in the recent operations, for an event that belongs to no call. */
  const note = (event: { seq: number; at: number }, text: string) =>
    operation({ key: `e${event.seq}`, status: 'info', text, at: event.at });
  /** A call's outcome: replaces its running line, or adds one when the call was never announced. */
  const settle = (op: DockOperation) => {
    const running = byCall.get(op.key);
    if (running) Object.assign(running, op);
    else operation(op);
  };
  for (const event of events) {
    switch (event.type) {
      case 'message':
        derived.messages.push({
          key: keys.get(event.seq) ?? `m${event.seq}`,
          role: event.role,
          text: event.text,
          streaming: false,
          ...(event.interrupted && { interrupted: true }),
        });
        if (event.role === 'user') {
          derived.error = undefined;
          derived.errorEvent = undefined;
          derived.notice = undefined;
          derived.lastUserText = event.text;
        }
        break;
      case 'tool-call':
        byCall.set(
          event.callId,
          operation({
            key: event.callId,
            status: 'running',
            text: texts.toolRunning(event.id),
            at: event.at,
            actionId: event.id,
          }),
        );
        break;
      case 'tool-result':
        settle({
          key: event.callId,
          status: event.ok ? 'ok' : 'failed',
          text: event.ok ? texts.toolDone(event.id) : failedText(texts, event.id, event.code ?? 'TOOL_FAILED'),
          at: event.at,
          actionId: event.id,
        });
        break;
      case 'blocked':
        settle({
          key: event.callId,
          status: 'blocked',
          text: texts.toolBlocked(event.id, event.reason),
          at: event.at,
          actionId: event.id,
        });
        break;
      case 'retry':
        note(event, texts.retry(event.retry, event.delayMs));
        break;
      case 'compacted':
        note(event, texts.compacted(event.tokensBefore, event.tokensAfter));
        break;
      case 'continuity':
        // Restored from the previous page, discarded (with why), or not saved.
        note(event, event.message);
        break;
      case 'notice':
        derived.notice = event.message;
        break;
      case 'error':
        derived.error = { code: event.code, message: event.message };
        derived.errorEvent = event;
        break;
    }
  }
  derived.operations = derived.operations.slice(-MAX_DOCK_OPERATIONS);
  return derived;
}

/**
 * A confirmation's arguments as the card shows them: one `name: value` line per argument (text as it is, other
 * values as compact JSON), which a person reads more easily than a JSON object.
 */
export function confirmationArgumentsText(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** A call that did not succeed, in the person's terms: one the run was stopped before it finished is cancelled. */
function failedText(texts: DockTexts, id: string, code: string): string {
  if (code === 'CANCELLED') return texts.toolCancelled(id);
  return texts.toolFailed(id, code);
}
