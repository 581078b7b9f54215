// A per-session copy of the active conversation history, kept current by memory events, so each turn reads only
// what is new and reuses the same message objects (the token estimate is cached per object). It holds the
// messages from `offset` on (the window start when it was loaded); a compression divider, a rollback or a clear
// drops the copy and the next turn reads again.
import type { MemoryService } from '@aalis/api-memory';
import { isControlMessage, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

interface SessionHistory {
  /** Conversation messages of the active history before `messages[0]`. */
  offset: number;
  messages: Message[];
}

/** Sessions kept at most; the least recently used copy goes first. */
const MAX_SESSIONS = 256;

export class HistoryCache {
  private readonly sessions = new Map<string, SessionHistory>();

  /** Conversation messages of the active history from `start` on, and the active count. */
  async window(memory: MemoryService, sessionId: string, start: number, count: number): Promise<Message[]> {
    let entry = this.sessions.get(sessionId);
    if (entry && (entry.offset > start || entry.offset + entry.messages.length !== count)) entry = undefined;
    if (!entry) {
      const messages = (await memory.read(sessionId, { from: start }))
        .filter((m) => !isControlMessage(m))
        .map(visibleForm);
      entry = { offset: start, messages };
    } else if (start > entry.offset) {
      entry.messages = entry.messages.slice(start - entry.offset);
      entry.offset = start;
    }
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, entry);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return entry.messages;
  }

  appended(sessionId: string, messages: readonly Message[]): void {
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    for (const message of messages) {
      if (message.kind === 'compression-divider') {
        this.sessions.delete(sessionId);
        return;
      }
      if (!isControlMessage(message)) entry.messages.push(visibleForm(message));
    }
  }

  forget(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) this.sessions.clear();
    else for (const id of sessionIds) this.sessions.delete(id);
  }
}

/** A stored structured-output envelope is sent as its decoded visible text. */
export function visibleForm(message: Message): Message {
  const visible = message.metadata?.[WellKnownMetadataKeys.VisibleContent];
  if (message.role !== 'assistant' || typeof visible !== 'string') return message;
  return { ...message, content: visible };
}
