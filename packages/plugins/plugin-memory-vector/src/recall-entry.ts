// Which archived messages long-term memory keeps, and how one becomes a recall entry: a real person's words and her
// replies (not tool calls and results, markers, summaries, injections or host notices), without the archive's time
// stamp, the speaker as the archive named them.
import { isControlMessage, WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import { MAX_INDEXED_CHARS } from '@aalis/util-text-search';
import type { Audience, RecallEntry } from './recall-store.js';

/** The archive's time stamp, `[YYYY-MM-DD HH:MM] ` in every locale. */
const TIME_STAMP = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] /;

export function isRecallable(message: Message): boolean {
  if (message.id === undefined || isControlMessage(message)) return false;
  if (message.kind !== undefined && message.kind !== 'turn-stopped') return false;
  const metadata = message.metadata ?? {};
  if (message.role === 'user') return metadata[Keys.Source] === undefined && metadata[Keys.HostNotice] === undefined;
  return message.role === 'assistant' && !(message.toolCalls && message.toolCalls.length > 0);
}

/** The words of a stored user message and how the archive named its speaker (undefined: no prefix). */
export function splitSpoken(message: Message): { speaker: string | undefined; text: string } {
  const content = message.content.replace(TIME_STAMP, '');
  const metadata = message.metadata ?? {};
  const names = [metadata[Keys.SenderName], metadata[Keys.SenderId]].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const firstLine = content.split('\n', 1)[0] ?? '';
  const colon = firstLine.indexOf(': ');
  if (colon > 0) {
    const prefix = firstLine.slice(0, colon);
    if (names.some((name) => prefix.includes(name))) return { speaker: prefix, text: content.slice(colon + 2) };
  }
  return { speaker: names[0], text: content };
}

function visibleReply(message: Message): string {
  const visible = message.metadata?.[Keys.VisibleContent];
  return typeof visible === 'string' ? visible : message.content;
}

export function recallEntry({
  sessionId,
  message,
  audience,
  person,
}: {
  sessionId: string;
  message: Message;
  audience: Audience;
  /** The speaker's person key, given only for words said in a multi-party room. */
  person: string | undefined;
}): RecallEntry | undefined {
  if (!isRecallable(message) || message.id === undefined) return undefined;
  const spoken = message.role === 'user' ? splitSpoken(message) : { speaker: undefined, text: visibleReply(message) };
  const text = spoken.text.slice(0, MAX_INDEXED_CHARS).trim();
  if (text === '') return undefined;
  const turnId = message.metadata?.[Keys.TurnId];
  return {
    messageId: message.id,
    sessionId,
    audience,
    ...(person !== undefined && message.role === 'user' ? { person } : {}),
    ...(spoken.speaker !== undefined ? { speaker: spoken.speaker } : {}),
    role: message.role === 'assistant' ? 'assistant' : 'user',
    ...(typeof turnId === 'string' ? { turnId } : {}),
    at: message.timestamp ?? Date.now(),
    text,
  };
}
