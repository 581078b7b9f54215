// Renaming, pinning and archiving a session (docs/session-protocol.md 「Session list: title, pin, archive」): each
// a session-manager update, so every process's lists get the `sessions` upsert and subscribers `session.updated`.
import type { SessionPatch } from '@aalis/api-session-manager';
import type { Account, ResultOf } from '@aalis/session-client';
import { badParam, requireString } from './params.js';
import type { ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession, summaryFor } from './session-access.js';

const MAX_TITLE_CHARS = 200;

type EditRequest = 'sessions.rename' | 'sessions.pin' | 'sessions.archive';

function requireBoolean(type: EditRequest, params: Record<string, unknown>, name: string): boolean {
  const value = params[name];
  if (typeof value !== 'boolean') badParam(type, name, 'boolean', value);
  return value;
}

export async function sessionEditRequest(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
  type: EditRequest,
): Promise<ResultOf<EditRequest>> {
  const session = await accessibleSession(deps, account, params.sessionId, type);
  if (!deps.sessionManager.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'sessionManager' });
  let patch: SessionPatch;
  if (type === 'sessions.rename') {
    const title = requireString(type, params, 'title', 4 * MAX_TITLE_CHARS)
      .replace(/\s+/g, ' ')
      .trim();
    if (title === '' || Array.from(title).length > MAX_TITLE_CHARS) {
      badParam(type, 'title', 'nonEmptyString', params.title, { max: String(MAX_TITLE_CHARS) });
    }
    patch = { title };
  } else if (type === 'sessions.pin') {
    patch = { pinnedAt: requireBoolean(type, params, 'pinned') ? Date.now() : null };
  } else {
    patch = { archivedAt: requireBoolean(type, params, 'archived') ? Date.now() : null };
  }
  const updated = await deps.sessionManager.use.update(session.id, patch);
  return { session: await summaryFor(deps, account, updated) };
}
