// Every account the server knows, as the owner's Accounts view lists it: the owner and the YAML-declared accounts
// (source 'config'), then the ones made from the page (source 'page'), each with its level and whether it has a
// password. Passwords and hashes never leave this file's inputs.
import type { AccountView } from '@aalis/session-client';
import { accountOf } from '../login-checks.js';
import type { ServerDeps } from '../server-deps.js';

export function accountViews(deps: ServerDeps): AccountView[] {
  const { ownerUserId, accounts } = deps.config;
  const declared = [ownerUserId, ...accounts.map((account) => account.userId).filter((id) => id !== ownerUserId)];
  const fromPage = deps.accounts
    .list()
    .filter((stored) => stored.origin === 'page' && !declared.includes(stored.userId))
    .map((stored) => stored.userId);
  return [...declared, ...fromPage].flatMap((userId) => {
    const view = accountView(deps, userId);
    return view ? [view] : [];
  });
}

export function accountView(deps: ServerDeps, userId: string): AccountView | undefined {
  const account = accountOf(deps, userId);
  if (!account) return undefined;
  const declared = userId === deps.config.ownerUserId || deps.config.accounts.some((entry) => entry.userId === userId);
  const stored = deps.accounts.get(userId);
  const view: AccountView = {
    userId,
    displayName: account.displayName,
    owner: account.owner,
    level: account.level,
    source: declared ? 'config' : 'page',
    hasPassword: stored?.passwordHash !== undefined,
    logins: deps.logins.loginsOf(userId).length,
  };
  if (stored?.passwordSetAt !== undefined) view.passwordSetAt = stored.passwordSetAt;
  if (stored && !declared) view.createdAt = stored.createdAt;
  return view;
}

/** Whether the YAML declares the account (the owner or plugins.session-server.accounts). */
export function isDeclared(deps: ServerDeps, userId: string): boolean {
  return userId === deps.config.ownerUserId || deps.config.accounts.some((entry) => entry.userId === userId);
}
