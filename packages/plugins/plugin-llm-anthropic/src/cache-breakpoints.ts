// Where cache_control breakpoints go: where the agent's trimming keeps the prompt prefix stable. The head (tools and
// system prompt) changes only with settings; the history changes only at a cut (trimming drops from its start); the
// turn grows at its end. So: the end of the head, the end of the history (the last finished reply before the current
// turn) and the last message. Between two cuts every request then extends a prefix an earlier request wrote, and the
// API's 20-block lookback finds it.
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

/**
 * The injector id the turn engine gives its per-call context block (time, platform: `[当前环境] …`). It joins the
 * leading system messages on a first turn (nothing between them yet) and sits after the history later, so the head
 * ends before it: otherwise the first turn would cache a head that the second turn no longer has.
 */
const VOLATILE_CONTEXT_INJECTOR = 'volatile-context';

function isVolatile(message: Message): boolean {
  return message.metadata?.[WellKnownMetadataKeys.Injector] === VOLATILE_CONTEXT_INJECTOR;
}

export interface Breakpoints {
  /** The last leading system message before the volatile context (the head), if any. */
  head?: number;
  /** The last message of the history segment, if the request has history before the current turn. */
  historyEnd?: number;
  /** The last message. */
  tail?: number;
}

export function placeBreakpoints(messages: readonly Message[]): Breakpoints {
  const result: Breakpoints = {};
  let head = -1;
  while (head + 1 < messages.length && messages[head + 1]!.role === 'system') head++;
  let stable = -1;
  while (stable + 1 <= head && !isVolatile(messages[stable + 1]!)) stable++;
  if (stable >= 0) result.head = stable;
  const last = messages.length - 1;
  for (let index = last - 1; index > head; index--) {
    const message = messages[index]!;
    if (message.role === 'assistant' && !(message.toolCalls && message.toolCalls.length > 0)) {
      result.historyEnd = index;
      break;
    }
  }
  if (last > head) result.tail = last;
  return result;
}
