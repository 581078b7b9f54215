// `POST /api/v1/login` with `{ account, password }`: the password checked against the account's argon2id hash,
// within the per-account and per-address limits. A refusal never says whether the account exists, and takes the
// same time either way (verifyPassword checks a decoy hash). Nothing here logs a password or a hash.
import type { Account } from '@aalis/session-client';
import { accountOf } from '../login-checks.js';
import { ACCOUNT_ID_PATTERN } from '../login-link.js';
import type { Login } from '../login-store.js';
import type { ServerDeps } from '../server-deps.js';
import { accountErrors } from './account-errors.js';
import { verifyPassword } from './password-hash.js';

export interface PasswordLoginRequest {
  account: unknown;
  password: unknown;
  /** The client's address (the per-address limit). */
  address: string;
  userAgent?: string;
}

export async function passwordLogin(
  deps: ServerDeps,
  request: PasswordLoginRequest,
): Promise<{ cookie: string; login: Login; account: Account; ttlMs: number }> {
  const name = typeof request.account === 'string' ? request.account.trim() : '';
  const password = typeof request.password === 'string' ? request.password : '';
  // A malformed account name counts as a failure like any other: the limits hold whatever is sent.
  const limitKey = ACCOUNT_ID_PATTERN.test(name) ? name : '(malformed)';
  deps.loginThrottle.check(limitKey, request.address);
  const account = ACCOUNT_ID_PATTERN.test(name) ? accountOf(deps, name) : undefined;
  const hash = account ? deps.accounts.get(account.userId)?.passwordHash : undefined;
  const matches = await verifyPassword(hash, password);
  if (!account || !matches) {
    deps.loginThrottle.failed(limitKey, request.address);
    deps.log.info('WebUI password login refused', account ? { account: account.userId } : { account: '(unknown)' });
    throw accountErrors.AALIS_WEBUI_LOGIN_FAILED();
  }
  deps.loginThrottle.succeeded(limitKey, request.address);
  const ttlMs = deps.config.loginTtlDays * 86_400_000;
  const { cookie, login } = deps.logins.create(account.userId, ttlMs, Date.now(), {
    method: 'password',
    ...(request.userAgent !== undefined ? { userAgent: request.userAgent } : {}),
  });
  deps.log.info('WebUI login', { account: account.userId, method: 'password' });
  return { cookie, login, account, ttlMs };
}
