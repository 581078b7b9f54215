// agent:llm:before's context with its message list built only when a middleware reads it (most turns have no
// middleware there): the list holds the whole history, and building it per call was the one cost of a model call
// that grew with the stored history. A list nobody read or replaced is the parts themselves, so the trim takes
// the parts (partsCall); one a middleware saw is found again as before (locateSegments).
import type { LlmBeforeContext } from '@aalis/api-agent';
import type { Message } from '@aalis/schema-message';
import {
  type AssembledCall,
  assemble,
  locateSegments,
  type PartsCall,
  partsCall,
  type TurnParts,
} from './call-messages.js';

export interface LazyLlmBefore {
  context: LlmBeforeContext;
  /** The call as the trim takes it: the parts when no middleware read or replaced the list, else that list. */
  call(): AssembledCall | PartsCall;
}

export function lazyLlmBefore(parts: TurnParts, fields: Omit<LlmBeforeContext, 'messages'>): LazyLlmBefore {
  let messages: Message[] | undefined;
  const context: LlmBeforeContext = {
    ...fields,
    get messages() {
      messages ??= assemble(parts).messages;
      return messages;
    },
    set messages(value) {
      messages = value;
    },
  };
  return {
    context,
    call: () =>
      messages === undefined && parts.historySegment
        ? partsCall(parts, parts.historySegment)
        : locateSegments(parts, context.messages),
  };
}

/** A new lazy context for the parts as they are now, with the other fields as the last run left them. */
export function relaunched(parts: TurnParts, previous: LlmBeforeContext): LazyLlmBefore {
  const fields: Record<string, unknown> = {};
  // Every field but the list (reading it would build it).
  for (const key of Object.keys(previous))
    if (key !== 'messages') fields[key] = previous[key as keyof LlmBeforeContext];
  return lazyLlmBefore(parts, fields as Omit<LlmBeforeContext, 'messages'>);
}

/** How many messages the call's list holds. */
export function callLength(call: AssembledCall | PartsCall): number {
  return 'parts' in call
    ? call.parts.head.length + call.parts.history.length + call.parts.turn.length
    : call.messages.length;
}
