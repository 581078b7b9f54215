// The account requests (docs/session-protocol.md 「Accounts and password login」): the owner lists, creates, edits
// and deletes accounts (admin.accounts.*); every account lists and revokes its own logins and changes its own
// password (account.*); the owner also lists and ends another account's logins (admin.accounts.logins*). Every
// check runs before anything is written; a failure changes nothing; every change leaves an audit record (a password
// only as the mask).
import type { Account, LoginSessionView } from '@aalis/session-client';
import { recordAudit } from '../audit.js';
import { loginIdOf } from '../login-store.js';
import { badParam, requireString } from '../params.js';
import type { Handler } from '../request-handler.js';
import { identityOf, type ServerDeps } from '../server-deps.js';
import { serverErrors } from '../server-errors.js';
import { accountErrors } from './account-errors.js';
import { accountIdParam, displayNameParam, levelParam, passwordParam } from './account-params.js';
import { accountView, accountViews, isDeclared } from './account-view.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password-hash.js';

const DECLARED_KEY = 'plugins.session-server.accounts';

function declaredError(deps: ServerDeps, userId: string, what: 'displayName' | 'delete' | 'owner') {
  return accountErrors.AALIS_WEBUI_ACCOUNT_DECLARED({
    userId,
    key: userId === deps.config.ownerUserId ? 'plugins.session-server.ownerUserId' : DECLARED_KEY,
    what: deps.translate({ key: `sessionServer.account.what.${what}` }),
  });
}

function requireAuthority(deps: ServerDeps) {
  if (!deps.authority.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'authority' });
  return deps.authority.use;
}

/** Sets the account's level as the owner making the request (the authority service checks and stores it). */
async function setLevel(deps: ServerDeps, owner: Account, userId: string, level: number): Promise<void> {
  const service = requireAuthority(deps);
  await service.setLevel({
    identity: identityOf({ userId } as Account),
    level,
    caller: service.callerOf(identityOf(owner)),
  });
}

export const accountsList: Handler<'admin.accounts.list'> = (deps) => {
  return { accounts: accountViews(deps) };
};

export const accountsCreate: Handler<'admin.accounts.create'> = async (deps, owner, params, { type }) => {
  const userId = accountIdParam(type, params);
  const displayName = displayNameParam(type, params) ?? undefined;
  const level = levelParam(type, params);
  const password = passwordParam(type, params, 'password', false) ?? undefined;
  if (password !== undefined) checkPasswordPolicy(password);
  if (isDeclared(deps, userId) || deps.accounts.get(userId)) throw accountErrors.AALIS_WEBUI_ACCOUNT_EXISTS({ userId });
  if (level !== undefined && level > 0) requireAuthority(deps);
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  const created = await deps.accounts.create({
    userId,
    origin: 'page',
    ...(displayName !== undefined ? { displayName } : {}),
    ...(passwordHash !== undefined ? { passwordHash } : {}),
  });
  if (!created) throw accountErrors.AALIS_WEBUI_ACCOUNT_EXISTS({ userId });
  if (level !== undefined && level > 0) {
    try {
      await setLevel(deps, owner, userId, level);
    } catch (error) {
      // The level was refused: the account goes again, so a failed create leaves nothing behind.
      await deps.accounts.delete(userId);
      throw error;
    }
  }
  deps.log.info('WebUI account created', { account: userId, by: owner.userId });
  const made = accountView(deps, userId)!;
  await recordAudit(deps, owner, [
    { action: type, key: `accounts.${userId}`, new: { displayName: made.displayName, level: made.level } },
    ...(password !== undefined ? [{ action: type, key: `accounts.${userId}.password`, new: '', secret: true }] : []),
  ]);
  return { account: made };
};

export const accountsUpdate: Handler<'admin.accounts.update'> = async (deps, owner, params, { type }) => {
  const userId = accountIdParam(type, params);
  const displayName = displayNameParam(type, params);
  const level = levelParam(type, params);
  const password = passwordParam(type, params, 'password', true);
  if (typeof password === 'string') checkPasswordPolicy(password);
  const declared = isDeclared(deps, userId);
  const stored = deps.accounts.get(userId);
  if (!declared && stored?.origin !== 'page') throw accountErrors.AALIS_WEBUI_ACCOUNT_UNKNOWN({ userId });
  if (declared && displayName !== undefined) throw declaredError(deps, userId, 'displayName');
  const current = accountView(deps, userId)!;
  if (level !== undefined && current.owner && level !== current.level) throw declaredError(deps, userId, 'owner');
  const passwordHash = typeof password === 'string' ? await hashPassword(password) : password;
  if (level !== undefined && level !== current.level) await setLevel(deps, owner, userId, level);
  if (displayName !== undefined || passwordHash !== undefined) {
    const changes = {
      ...(displayName !== undefined ? { displayName } : {}),
      ...(passwordHash !== undefined ? { passwordHash } : {}),
    };
    // A declared account has a row only once it has a password.
    if (!stored && typeof passwordHash === 'string') {
      if (!(await deps.accounts.create({ userId, origin: 'config', passwordHash }))) {
        await deps.accounts.update(userId, changes);
      }
    } else if (stored) {
      await deps.accounts.update(userId, changes);
    }
  }
  await recordAudit(deps, owner, [
    ...(displayName !== undefined
      ? [{ action: type, key: `accounts.${userId}.displayName`, old: current.displayName, new: displayName ?? '' }]
      : []),
    ...(level !== undefined && level !== current.level
      ? [{ action: type, key: `accounts.${userId}.level`, old: current.level, new: level }]
      : []),
    ...(password !== undefined
      ? [
          {
            action: type,
            key: `accounts.${userId}.password`,
            old: current.hasPassword ? '' : undefined,
            new: password === null ? undefined : '',
            secret: true,
          },
        ]
      : []),
  ]);
  deps.log.info('WebUI account changed', {
    account: userId,
    by: owner.userId,
    changed: [
      ...(displayName !== undefined ? ['displayName'] : []),
      ...(level !== undefined ? ['level'] : []),
      ...(password !== undefined ? ['password'] : []),
    ],
  });
  return { account: accountView(deps, userId)! };
};

export const accountsDelete: Handler<'admin.accounts.delete'> = async (deps, owner, params, { type }) => {
  const userId = accountIdParam(type, params);
  if (isDeclared(deps, userId)) throw declaredError(deps, userId, 'delete');
  if (deps.accounts.get(userId)?.origin !== 'page') throw accountErrors.AALIS_WEBUI_ACCOUNT_UNKNOWN({ userId });
  const level = accountView(deps, userId)?.level ?? 0;
  if (level > 0) await setLevel(deps, owner, userId, 0);
  const deleted = await deps.accounts.delete(userId);
  // Its logins end with it: the next request of any of them is refused and its sockets close now.
  for (const key of deps.logins.endAll(userId)) deps.closeLogin(key);
  deps.log.info('WebUI account deleted', { account: userId, by: owner.userId });
  await recordAudit(deps, owner, { action: type, key: `accounts.${userId}`, old: { level } });
  return { deleted };
};

/** The account's logins as LoginSessionViews (never the key: only its public id). */
function loginViews(deps: ServerDeps, userId: string, currentKey: string | undefined): LoginSessionView[] {
  return deps.logins.loginsOf(userId).map((login) => {
    const view: LoginSessionView = {
      id: login.id,
      createdAt: login.createdAt,
      lastUsedAt: login.lastUsedAt,
      expiresAt: login.expiresAt,
      current: login.key === currentKey,
    };
    if (login.userAgent !== undefined) view.device = login.userAgent;
    if (login.method !== undefined) view.method = login.method;
    return view;
  });
}

export const loginSessionsList: Handler<'account.sessions.list'> = (deps, account, _params, { origin }) => {
  const sessions = loginViews(deps, account.userId, origin.peer?.loginKey ?? origin.loginKey);
  return { sessions, hasPassword: deps.accounts.get(account.userId)?.passwordHash !== undefined };
};

/** Ends one login of `userId` (by its public id) and closes its sockets; `by` made the request. */
async function revokeLogin(
  deps: ServerDeps,
  by: Account,
  userId: string,
  type: 'account.sessions.revoke' | 'admin.accounts.logins.revoke',
  params: Record<string, unknown>,
): Promise<{ revoked: boolean }> {
  const id = requireString(type, params, 'loginId', 64);
  const login = deps.logins.loginsOf(userId).find((candidate) => candidate.id === id);
  if (!login) throw accountErrors.AALIS_WEBUI_LOGIN_UNKNOWN({ id });
  deps.logins.end(login.key);
  deps.closeLogin(login.key);
  deps.log.info('WebUI login revoked', { account: userId, login: loginIdOf(login.key), by: by.userId });
  await recordAudit(deps, by, { action: type, key: `accounts.${userId}.logins.${id}`, old: login.userAgent ?? '' });
  return { revoked: true };
}

export const loginSessionRevoke: Handler<'account.sessions.revoke'> = (deps, account, params, { type }) => {
  return revokeLogin(deps, account, account.userId, type, params);
};

/** The account must exist (declared, the owner, or made here); otherwise AALIS_WEBUI_ACCOUNT_UNKNOWN. */
function knownAccount(deps: ServerDeps, type: string, params: Record<string, unknown>): string {
  const userId = accountIdParam(type, params);
  if (!accountView(deps, userId)) throw accountErrors.AALIS_WEBUI_ACCOUNT_UNKNOWN({ userId });
  return userId;
}

export const accountLogins: Handler<'admin.accounts.logins'> = (deps, _account, params, { type }) => {
  const userId = knownAccount(deps, type, params);
  return { sessions: loginViews(deps, userId, undefined) };
};

export const accountLoginRevoke: Handler<'admin.accounts.logins.revoke'> = (deps, owner, params, { type }) => {
  return revokeLogin(deps, owner, knownAccount(deps, type, params), type, params);
};

export const passwordSet: Handler<'account.password.set'> = async (deps, account, params, { type, origin }) => {
  const address = origin.address ?? '';
  const password = passwordParam(type, params, 'password', false);
  if (typeof password !== 'string') badParam(type, 'password', 'password', params.password, undefined, true);
  const current = passwordParam(type, params, 'current', false) ?? undefined;
  checkPasswordPolicy(password);
  const stored = deps.accounts.get(account.userId);
  const expected = stored?.passwordHash;
  if (expected !== undefined) {
    // The current password is guessed like a login's: the same limits hold.
    deps.loginThrottle.check(account.userId, address);
    if (current === undefined || !(await verifyPassword(expected, current))) {
      deps.loginThrottle.failed(account.userId, address);
      throw accountErrors.AALIS_WEBUI_PASSWORD_WRONG();
    }
  }
  // Without a password yet (made by the owner without one, or a YAML account): a login may set the first one; this
  // is how the owner, logged in by the start link, makes a phone able to log in without a shell.
  const hash = await hashPassword(password);
  let written = stored
    ? await deps.accounts.replacePassword(account.userId, expected, hash)
    : await deps.accounts.create({ userId: account.userId, origin: 'config', passwordHash: hash });
  if (!written && !stored) written = await deps.accounts.replacePassword(account.userId, undefined, hash);
  // Another change came between the check and the write: refused, so nothing is overwritten unchecked.
  if (!written) throw accountErrors.AALIS_WEBUI_PASSWORD_WRONG();
  deps.log.info('WebUI password set', { account: account.userId });
  await recordAudit(deps, account, { action: type, key: `accounts.${account.userId}.password`, new: '', secret: true });
  return { passwordSetAt: deps.accounts.get(account.userId)?.passwordSetAt ?? Date.now() };
};
