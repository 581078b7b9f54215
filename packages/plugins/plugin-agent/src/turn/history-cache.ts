// A per-session copy of the active conversation history, kept current by memory events, so each turn reads only
// what is new and reuses the same message objects (the token estimate is cached per object). It holds the
// messages from `offset` on (the window start when it was loaded), their groupToolCalls form (an append-only
// MessageLog grown with each append; regrouped whole, into a new log, only while an incomplete group waits for a
// result) and the session's trim index, which trusts what it indexed from the same log; a compression divider, a
// rollback or a clear drops the copy and the next turn reads again.
import type { MemoryService } from '@aalis/api-memory';

/** The one read the cache makes of the memory service. */
export type HistoryReader = Pick<MemoryService, 'read'>;

import { freezeMessage, HistoryTrimIndex, MessageLog } from '@aalis/context-budget';
import {
  type Attachment,
  groupToolCalls,
  isControlMessage,
  type Message,
  type ToolCall,
  WellKnownMetadataKeys,
} from '@aalis/schema-message';

interface SessionHistory {
  /** Conversation messages of the active history before `messages[0]`. */
  offset: number;
  messages: Message[];
  /** groupToolCalls(messages).messages, or undefined until asked for. Only appended to: a regroup is a new log. */
  grouped: MessageLog | undefined;
  /** Whether `grouped` has an incomplete group (a later result could complete it: regroup everything). */
  incomplete: boolean;
  /** Position in `grouped` of the first user message of each turn id (this turn's inputs leave the history). */
  turnStarts: Map<string, number>;
}

export interface GroupedWindow {
  /** The grouped window; later appends grow it, so `length` says how much of it this read saw. */
  log: MessageLog;
  length: number;
  /** Position of the first user message carrying this turn id (none: undefined). */
  firstOfTurn(turnId: string): number | undefined;
}

function noteTurns(turnStarts: Map<string, number>, messages: readonly Message[], base: number): void {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    const turnId = message.role === 'user' ? message.metadata?.[WellKnownMetadataKeys.TurnId] : undefined;
    if (typeof turnId === 'string' && !turnStarts.has(turnId)) turnStarts.set(turnId, base + index);
  }
}

/**
 * The copy's own frozen object: frozen messages are what the trim index reuses by identity, and the one stored
 * by the appender stays the appender's to change.
 */
function ownFrozen(message: Message): Message {
  const copy: Message = { ...message };
  // Indexed loops, not map callbacks: this runs for every appended message (three appends per tool turn).
  const calls = message.toolCalls;
  if (calls) {
    const copies: ToolCall[] = new Array(calls.length);
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index]!;
      copies[index] = { ...call, function: { ...call.function } };
    }
    copy.toolCalls = copies;
  }
  const attachments = message.attachments;
  if (attachments) {
    const copies: Attachment[] = new Array(attachments.length);
    for (let index = 0; index < attachments.length; index++) copies[index] = { ...attachments[index]! };
    copy.attachments = copies;
  }
  if (message.metadata) copy.metadata = { ...message.metadata };
  return freezeMessage(copy);
}

/** Sessions kept at most; the least recently used copy goes first. */
const MAX_SESSIONS = 256;

export class HistoryCache {
  private readonly sessions = new Map<string, SessionHistory>();
  private readonly trimIndexes = new Map<string, HistoryTrimIndex>();

  /** Conversation messages of the active history from `start` on, and the active count. */
  async window(memory: HistoryReader, sessionId: string, start: number, count: number): Promise<Message[]> {
    return (await this.entry(memory, sessionId, start, count)).messages;
  }

  /**
   * The window from `start` as applyHistoryWindow groups it (tool-call groups contiguous, incomplete groups and
   * orphan results left out): grouping the messages appended since the last call alone gives the same as grouping
   * everything, as long as what came before has no incomplete group.
   */
  async groupedWindow(memory: HistoryReader, sessionId: string, start: number, count: number): Promise<GroupedWindow> {
    const entry = await this.entry(memory, sessionId, start, count);
    if (entry.grouped === undefined) {
      const grouped = groupToolCalls(entry.messages);
      entry.grouped = new MessageLog();
      entry.grouped.append(grouped.messages);
      entry.incomplete = grouped.incomplete.length > 0;
      entry.turnStarts = new Map();
      noteTurns(entry.turnStarts, grouped.messages, 0);
    }
    const { turnStarts, grouped } = entry;
    return { log: grouped, length: grouped.length, firstOfTurn: (turnId) => turnStarts.get(turnId) };
  }

  /** The session's trim index (see HistoryTrimIndex: it checks what it reuses, so it is never stale). */
  trimIndex(sessionId: string): HistoryTrimIndex {
    let index = this.trimIndexes.get(sessionId);
    if (!index) {
      index = new HistoryTrimIndex();
      this.trimIndexes.set(sessionId, index);
    }
    this.trimIndexes.delete(sessionId);
    this.trimIndexes.set(sessionId, index);
    if (this.trimIndexes.size > MAX_SESSIONS) this.trimIndexes.delete(this.trimIndexes.keys().next().value!);
    return index;
  }

  private async entry(memory: HistoryReader, sessionId: string, start: number, count: number): Promise<SessionHistory> {
    let entry = this.sessions.get(sessionId);
    if (entry && (entry.offset > start || entry.offset + entry.messages.length !== count)) entry = undefined;
    if (!entry) {
      // Read objects are this copy's own: frozen in place.
      const messages = (await memory.read(sessionId, { from: start }))
        .filter((m) => !isControlMessage(m))
        .map((m) => freezeMessage(visibleForm(m)));
      entry = { offset: start, messages, grouped: undefined, incomplete: false, turnStarts: new Map() };
    } else if (start > entry.offset) {
      entry.messages = entry.messages.slice(start - entry.offset);
      entry.offset = start;
      entry.grouped = undefined;
    }
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, entry);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return entry;
  }

  appended(sessionId: string, messages: readonly Message[]): void {
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    const added: Message[] = [];
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.kind === 'compression-divider') {
        this.sessions.delete(sessionId);
        return;
      }
      if (!isControlMessage(message)) added.push(ownFrozen(visibleForm(message)));
    }
    if (added.length === 0) return;
    for (let index = 0; index < added.length; index++) entry.messages.push(added[index]!);
    if (entry.grouped === undefined) return;
    if (entry.incomplete) {
      entry.grouped = undefined;
      return;
    }
    const grouped = groupToolCalls(added);
    noteTurns(entry.turnStarts, grouped.messages, entry.grouped.length);
    entry.grouped.append(grouped.messages);
    entry.incomplete = grouped.incomplete.length > 0;
  }

  forget(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) {
      this.sessions.clear();
      this.trimIndexes.clear();
    } else {
      for (const id of sessionIds) {
        this.sessions.delete(id);
        this.trimIndexes.delete(id);
      }
    }
  }
}

/** A stored structured-output envelope is sent as its decoded visible text. */
export function visibleForm(message: Message): Message {
  const visible = message.metadata?.[WellKnownMetadataKeys.VisibleContent];
  if (message.role !== 'assistant' || typeof visible !== 'string') return message;
  return { ...message, content: visible };
}
