// The checks every request passes (docs/session-protocol.md 「Login and safety」): the Host header (DNS rebinding),
// the Origin (cross-site requests and sockets), the login cookie, the CSRF header of POSTs; and the accounts.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Account } from '@aalis/session-client';
import type { Login } from './login-store.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

export const LOGIN_COOKIE = 'aalis_login';
export const CSRF_HEADER = 'x-aalis-csrf';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values this server answers to: its address, loopback names with its port, allowedHosts. */
export function acceptedHosts(listenHost: string, port: number, allowed: readonly string[]): Set<string> {
  const hosts = new Set<string>(allowed.map((host) => host.toLowerCase()));
  const bracketed = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  hosts.add(`${bracketed}:${port}`.toLowerCase());
  for (const name of LOOPBACK_NAMES) hosts.add(`${name}:${port}`);
  return hosts;
}

export function checkHost(host: string | undefined, accepted: ReadonlySet<string>, expected: string): void {
  if (host === undefined || !accepted.has(host.toLowerCase())) {
    throw serverErrors.AALIS_WEBUI_HOST_REFUSED({ host: (host ?? '').slice(0, 100), expected });
  }
}

/** The Origin must be this server as the request addressed it (an absent Origin is a non-browser client). */
export function checkOrigin(origin: string | undefined, host: string, required: boolean): void {
  const expected = `http://${host}`;
  if (origin === undefined || origin === '') {
    if (required) throw serverErrors.AALIS_WEBUI_ORIGIN_REFUSED({ origin: '(none)', expected });
    return;
  }
  if (origin.toLowerCase() !== expected.toLowerCase() && origin.toLowerCase() !== `https://${host}`.toLowerCase()) {
    throw serverErrors.AALIS_WEBUI_ORIGIN_REFUSED({ origin: origin.slice(0, 100), expected });
  }
}

/**
 * Whether a presented secret (the CSRF header) is the expected one, in time that does not depend on where they differ:
 * both are hashed first, so neither their contents nor their lengths leak through the comparison.
 */
export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** The login of a request's cookie; LOGIN_REQUIRED without one, LOGIN_EXPIRED for an ended or expired one. */
export function requireLogin(deps: ServerDeps, cookieHeader: string | undefined): Login {
  const cookie = cookieValue(cookieHeader, LOGIN_COOKIE);
  if (!cookie) throw serverErrors.AALIS_WEBUI_LOGIN_REQUIRED();
  const found = deps.logins.lookup(cookie);
  if (found.status !== 'ok') throw serverErrors.AALIS_WEBUI_LOGIN_EXPIRED();
  return found.login;
}

/** The account of a user id, or undefined when it is neither the owner nor a configured account. */
export function accountOf(deps: ServerDeps, userId: string): Account | undefined {
  const { ownerUserId, ownerDisplayName, accounts } = deps.config;
  const configured = accounts.find((account) => account.userId === userId);
  // An account made from the page (accounts/account-store.ts) counts too; a YAML one wins over a row of the same id.
  const fromPage = configured || userId === ownerUserId ? undefined : deps.accounts.get(userId);
  if (userId !== ownerUserId && !configured && fromPage?.origin !== 'page') return undefined;
  const identity = identityOf({ userId } as Account);
  const owner = userId === ownerUserId || (deps.authority.available && deps.authority.use.isOwner(identity));
  const level = deps.authority.available ? deps.authority.use.levelOf(identity) : 0;
  const displayName =
    (userId === ownerUserId ? ownerDisplayName : (configured?.displayName ?? fromPage?.displayName)) ?? userId;
  return { userId, displayName, owner, level };
}

export function loginCookie(value: string, maxAgeSeconds: number): string {
  return `${LOGIN_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;
}

export function clearedLoginCookie(): string {
  return `${LOGIN_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
}
