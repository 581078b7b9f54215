// Who may see which session, and the session list as an account sees it. The owner sees every session; another
// account only the ones it created through this server (ids `webui:<userId>:…`).
import type { SessionInfo } from '@aalis/api-session-manager';
import type { Account, RequestType, SessionSummary } from '@aalis/session-client';
import { badParam } from './params.js';
import { type ServerDeps, WEBUI_PLATFORM } from './server-deps.js';
import { serverErrors } from './server-errors.js';

export function ownSessionPrefix(account: Pick<Account, 'userId'>): string {
  return `${WEBUI_PLATFORM}:${account.userId}:`;
}

export function canSee(account: Account, sessionId: string): boolean {
  return account.owner || sessionId.startsWith(ownSessionPrefix(account));
}

function requireManager(deps: ServerDeps) {
  if (!deps.sessionManager.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'sessionManager' });
  return deps.sessionManager.use;
}

/** The session, when it exists and the account may see it; coded errors otherwise. */
export async function accessibleSession(
  deps: ServerDeps,
  account: Account,
  sessionId: unknown,
  type: RequestType,
): Promise<SessionInfo> {
  if (typeof sessionId !== 'string' || sessionId === '') badParam(type, 'sessionId', 'sessionId', sessionId);
  const session = await requireManager(deps).get(sessionId);
  if (!session) throw serverErrors.AALIS_WEBUI_SESSION_UNKNOWN({ sessionId });
  if (!canSee(account, sessionId)) {
    throw serverErrors.AALIS_WEBUI_FORBIDDEN({ reason: deps.translate({ key: 'sessionServer.forbidden.session' }) });
  }
  deps.kinds.set(session.id, session.kind);
  return session;
}

export function summaryOf(
  deps: ServerDeps,
  session: SessionInfo,
  children: readonly string[],
  readMarks: ReadonlyMap<string, number>,
  account: Account,
): SessionSummary {
  deps.kinds.set(session.id, session.kind);
  const read = readMarks.get(session.id) ?? 0;
  // An account watching the session (a subscribed socket) has read what happens there, in every frame: the
  // session's own session:updated at a turn's end comes before the read mark is written.
  let watching = false;
  for (const peer of deps.peers) {
    if (peer.account.userId === account.userId && peer.subscriptions.has(session.id)) watching = true;
  }
  const summary: SessionSummary = {
    id: session.id,
    kind: session.kind,
    platform: session.platform,
    children: [...children],
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    unread: !watching && session.lastTurn !== undefined && session.lastTurn.at > read,
    running: deps.live(session.id).turn !== undefined,
    writable: canSee(account, session.id),
    canSend: canSee(account, session.id) && session.kind !== 'room',
    pinned: session.pinnedAt !== undefined,
    archived: session.archivedAt !== undefined,
  };
  if (session.venue !== undefined) summary.venue = session.venue;
  if (session.title !== undefined) summary.title = session.title;
  if (session.parentId !== undefined) summary.parentId = session.parentId;
  if (session.lastTurn) {
    summary.lastTurn = {
      turnId: session.lastTurn.turnId,
      outcome: session.lastTurn.outcome,
      at: session.lastTurn.at,
      ...(session.lastTurn.error !== undefined ? { error: session.lastTurn.error } : {}),
    };
  }
  return summary;
}

/**
 * Every session the account may see, pinned ones first (most recently pinned first), then most recently updated
 * first, with children ids. Archived sessions only with `archived: true` (then only they) or with a search.
 */
export async function listSessions(
  deps: ServerDeps,
  account: Account,
  search?: string,
  archived = false,
): Promise<SessionSummary[]> {
  const all = await requireManager(deps).list({ limit: 1000 });
  const children = new Map<string, string[]>();
  for (const session of [...all].sort((a, b) => a.createdAt - b.createdAt)) {
    if (session.parentId === undefined) continue;
    const list = children.get(session.parentId) ?? [];
    list.push(session.id);
    children.set(session.parentId, list);
  }
  const needle = search?.trim().toLowerCase() ?? '';
  const marks = deps.logins.readMarks(account.userId);
  const pinnedFirst = [...all].sort((a, b) => (b.pinnedAt ?? -1) - (a.pinnedAt ?? -1));
  return pinnedFirst
    .filter((session) => canSee(account, session.id))
    .filter((session) => (needle !== '' && !archived) || (session.archivedAt !== undefined) === archived)
    .filter(
      (session) =>
        needle === '' ||
        [session.id, session.title, session.platform, session.venue].some((field) =>
          field?.toLowerCase().includes(needle),
        ),
    )
    .map((session) => summaryOf(deps, session, children.get(session.id) ?? [], marks, account));
}

/** The summary of one session for the account (children looked up). */
export async function summaryFor(deps: ServerDeps, account: Account, session: SessionInfo): Promise<SessionSummary> {
  const children = deps.sessionManager.available ? await deps.sessionManager.use.children(session.id) : [];
  return summaryOf(
    deps,
    session,
    children.map((child) => child.id),
    deps.logins.readMarks(account.userId),
    account,
  );
}
