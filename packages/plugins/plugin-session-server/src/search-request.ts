// `search` (docs/session-protocol.md 「Search」): the memory service's full-text search over the sessions this account
// may see, each hit with what the page needs to open the session at that message (storage id, turn id) and a short
// snippet with the match marked.
import { WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import type { SearchHit } from '@aalis/session-client';
import { inputText } from './input-text.js';
import { badParam, requireString } from './params.js';
import type { Handler } from './request-handler.js';
import { ownSessionPrefix } from './session-access.js';

const SNIPPET_CHARS = 160;
const MARK_START = '\u0002';
const MARK_END = '\u0003';

/** What the person or she wrote, without the archive's time and speaker prefix. */
function shownText(message: Message): string {
  const metadata = message.metadata ?? {};
  if (message.role === 'user' && message.kind === undefined) {
    const text = (key: string) => (typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
    return inputText(message.content, { senderId: text(Keys.SenderId), senderName: text(Keys.SenderName) });
  }
  const visible = metadata[Keys.VisibleContent];
  return typeof visible === 'string' ? visible : message.content;
}

/** At most SNIPPET_CHARS characters around the first place a query word appears, that word marked. */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  // The whole query, then each word of it, then a word's first four letters (a stem: deployed → depl).
  const words = query.trim().split(/\s+/);
  const needles = [query.trim(), ...words, ...words.map((word) => word.slice(0, 4))]
    .map((needle) => needle.toLowerCase())
    .filter((needle) => needle !== '');
  let at = -1;
  let length = 0;
  for (const needle of needles) {
    at = lower.indexOf(needle);
    if (at >= 0) {
      length = needle.length;
      break;
    }
  }
  if (at < 0) return Array.from(flat).slice(0, SNIPPET_CHARS).join('');
  const start = Math.max(0, at - Math.floor((SNIPPET_CHARS - length) / 2));
  const end = Math.min(flat.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${flat.slice(start, at)}${MARK_START}${flat.slice(at, at + length)}${MARK_END}${flat.slice(at + length, end)}${end < flat.length ? '…' : ''}`;
}

export const searchRequest: Handler<'search'> = async (deps, account, params, { type }) => {
  const query = requireString(type, params, 'query', 200);
  const limit = params.limit === undefined ? 20 : params.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    badParam(type, 'limit', 'oneOf', limit, { values: '1–100' });
  }
  if (!deps.memory.available || query.trim() === '') return { hits: [], truncated: false };
  const found = await deps.memory.use.search(query, {
    limit: limit + 1,
    ...(account.owner ? {} : { sessionPrefix: ownSessionPrefix(account) }),
  });
  const sessions = new Map<string, { title?: string; archived: boolean } | undefined>();
  const hits: SearchHit[] = [];
  for (const { sessionId, message } of found.slice(0, limit)) {
    if (!sessions.has(sessionId)) {
      const info = deps.sessionManager.available ? await deps.sessionManager.use.get(sessionId) : undefined;
      sessions.set(
        sessionId,
        info
          ? { ...(info.title !== undefined ? { title: info.title } : {}), archived: info.archivedAt !== undefined }
          : undefined,
      );
    }
    const session = sessions.get(sessionId);
    // A session deleted meanwhile (its rows go with it) is not offered.
    if (!session) continue;
    const turnId = message.metadata?.[Keys.TurnId];
    hits.push({
      sessionId,
      ...(session.title !== undefined ? { sessionTitle: session.title } : {}),
      archived: session.archived,
      messageId: message.id ?? '',
      ...(typeof turnId === 'string' ? { turnId } : {}),
      role: message.role,
      at: message.timestamp ?? 0,
      snippet: snippetOf(shownText(message), query),
      superseded: message.metadata?.[Keys.Superseded] !== undefined,
    });
  }
  return { hits, truncated: found.length > limit };
};
