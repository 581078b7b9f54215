// Redaction by value at the runtime's edges: whatever carries a page's sensitive value (the user's input, a tool
// result a handler or a PostToolUse hook produced, an error, a hook's reason), the text that leaves the session —
// requests to the model, trace entries, stored events, listeners, send() results — has it replaced by its marker.
// The page layer supplies the redactor (it knows the values); without one nothing is changed.
import type { Message } from '@aalis/schema-message';
import { PlingError } from './errors.js';
import { mapPlainData } from './plain-data.js';
import type { SessionEventBody } from './session-events.js';

/**
 * Replaces every sensitive value in a text by its marker. `pendingLength(text)`, when given: how many of the text's
 * last characters could be the start of a value it replaces — streamed text holds those back, so a value split
 * across two deltas is still caught.
 */
export type Redact = ((text: string) => string) & { readonly pendingLength?: (text: string) => number };

/**
 * Redacts a model's streamed text as a whole rather than delta by delta: a value split across deltas ("ann.pri" +
 * "vate@…") would pass a per-delta redactor. Each push redacts everything streamed so far and delivers only what
 * can no longer change (all but a tail that could start a value, `pendingLength`); flush() delivers the rest.
 */
export function streamRedactor(redactor: () => Redact, deliver: (text: string) => void) {
  let redact: Redact | undefined;
  let raw = '';
  let delivered = '';
  const send = (final: boolean) => {
    // One redactor per model call, not per delta: building it reads every state getter of the page.
    redact ??= redactor();
    const redacted = redact(raw);
    const ready = final ? redacted : redacted.slice(0, redacted.length - (redact.pendingLength?.(redacted) ?? 0));
    // Text already delivered cannot be taken back; should redaction ever rewrite it, the stored message corrects
    // the view, and nothing unredacted is sent meanwhile.
    if (ready.length <= delivered.length || !ready.startsWith(delivered)) return;
    const text = ready.slice(delivered.length);
    delivered = ready;
    deliver(text);
  };
  return {
    push(text: string) {
      raw += text;
      send(false);
    },
    flush() {
      send(true);
    },
  };
}

/** Builds a redactor from the values the page shows now; called once per request, event or result. */
export type RedactorSource = () => Redact;

export const noRedaction: Redact = (text) => text;

export function redactMessage(message: Message, redact: Redact): Message {
  const content = redact(message.content);
  const reasoning = message.reasoningContent === undefined ? undefined : redact(message.reasoningContent);
  let toolCalls = message.toolCalls;
  if (toolCalls?.some((call) => redact(call.function.arguments) !== call.function.arguments)) {
    toolCalls = toolCalls.map((call) => ({
      ...call,
      function: { ...call.function, arguments: redact(call.function.arguments) },
    }));
  }
  if (content === message.content && reasoning === message.reasoningContent && toolCalls === message.toolCalls) {
    return message;
  }
  const copy: Message = { ...message, content };
  if (reasoning !== undefined) copy.reasoningContent = reasoning;
  if (toolCalls !== undefined) copy.toolCalls = toolCalls;
  return copy;
}

/** A copy of plain data with every string redacted (numbers are left to the text pass over the JSON). */
export function redactValue(value: unknown, redact: Redact): unknown {
  return mapPlainData(value, (leaf) => (typeof leaf === 'string' ? redact(leaf) : leaf));
}

/** Free-text fields of events (a message's text, a notice's or error's message, a block's reason …). */
const FREE_TEXT = ['text', 'message', 'reason'] as const;

/** The event with its free-text fields redacted; the same object when nothing changed. */
export function redactEventBody(body: SessionEventBody, redact: Redact): SessionEventBody {
  let copy: Record<string, unknown> | undefined;
  for (const field of FREE_TEXT) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value !== 'string') continue;
    const redacted = redact(value);
    if (redacted === value) continue;
    copy ??= { ...body };
    copy[field] = redacted;
  }
  return (copy as SessionEventBody | undefined) ?? body;
}

/** The same error when nothing needed redacting; else a copy with the redacted message and no cause. */
export function redactError(error: PlingError, redact: Redact): PlingError {
  const message = redact(error.message);
  if (message === error.message) return error;
  const partial = error.partialContent === undefined ? undefined : redact(error.partialContent);
  return new PlingError({
    code: error.code,
    message,
    retryable: error.retryable,
    ...(error.status !== undefined && { status: error.status }),
    ...(partial !== undefined && { partialContent: partial }),
  });
}
