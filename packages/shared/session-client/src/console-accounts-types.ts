// Requests of the console's accounts, login sessions, usage and logs pages (docs/session-protocol.md 「Accounts and
// password login」, 「Usage page」, 「Logs」): their parameters and results. RequestMap extends AccountRequests.
import type { LogView } from './request-types.js';

/** An account as the owner's 账号/Accounts view lists it. Never a password or a hash. */
export interface AccountView {
  userId: string;
  displayName: string;
  owner: boolean;
  /** The authority level (owners: above every level). */
  level: number;
  /** 'config': declared in aalis.config.yaml (not deletable here); 'page': made from the page. */
  source: 'config' | 'page';
  /** Whether the account can log in with a password (otherwise only with a one-time link). */
  hasPassword: boolean;
  passwordSetAt?: number;
  createdAt?: number;
  /** Logins of the account on this host that have not expired. */
  logins: number;
}

/** One login of the account (a browser, a phone) as its owner sees it. */
export interface LoginSessionView {
  /** Public id (revoke with it: `account.sessions.revoke { loginId }`). */
  id: string;
  /** The device: the browser's user agent when it sent one. */
  device?: string;
  method?: 'link' | 'password';
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  /** The login this request came with. */
  current: boolean;
}

export type UsageGroupBy = 'day' | 'model' | 'account' | 'session' | 'platform';

/** The sums of one group (a day, a model, an account, a session or a platform). */
export interface UsageRow {
  key: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  /** Of the calls that had a price, in `currency`. */
  cost: number;
  /** Calls without a known price (their cost is not in `cost`). */
  unpriced: number;
  currency?: string;
}

export interface UsageReport {
  /** The period: [from, to) in ms since the epoch. */
  from: number;
  to: number;
  days: number;
  groupBy: UsageGroupBy;
  rows: UsageRow[];
  /** Every call of the period, summed. */
  total: UsageRow;
  /** The chart's series: one row per day of the period (days without calls: zeros). */
  daily: UsageRow[];
}

export interface LogFilter {
  /** The least level shown (default info). */
  level?: LogView['level'];
  /** The plugin (logger name, or its prefix). */
  plugin?: string;
  sessionId?: string;
  turnId?: string;
}

export interface AccountRequests {
  'admin.accounts.list': { params: Record<string, never>; result: { accounts: AccountView[] } };
  'admin.accounts.create': {
    params: { userId: string; displayName?: string; level?: number; password?: string };
    result: { account: AccountView };
  };
  'admin.accounts.update': {
    /** `displayName` / `password` null removes it; absent keys stay as they are. */
    params: { userId: string; displayName?: string | null; level?: number; password?: string | null };
    result: { account: AccountView };
  };
  'admin.accounts.delete': { params: { userId: string }; result: { deleted: boolean } };
  /** The owner sees another account's logins (`current` is always false: none is the owner's own). */
  'admin.accounts.logins': { params: { userId: string }; result: { sessions: LoginSessionView[] } };
  /** The owner ends one login of an account: its next request is refused and its sockets close. */
  'admin.accounts.logins.revoke': { params: { userId: string; loginId: string }; result: { revoked: boolean } };
  /** `hasPassword`: whether this account can log in with a password yet (the first one needs no current one). */
  'account.sessions.list': {
    params: Record<string, never>;
    result: { sessions: LoginSessionView[]; hasPassword: boolean };
  };
  /** `loginId`: a LoginSessionView's id (a frame's own `id` is the request id, so the parameter is named apart). */
  'account.sessions.revoke': { params: { loginId: string }; result: { revoked: boolean } };
  'account.password.set': {
    /** `current` is needed once the account has a password. */
    params: { password: string; current?: string };
    result: { passwordSetAt: number };
  };
  'admin.usage': {
    /** `days` 1–90 (default 30); `utcOffsetMinutes`: the reader's offset, for the days' bounds (default 0). */
    params: { days?: number; groupBy: UsageGroupBy; utcOffsetMinutes?: number; limit?: number };
    result: UsageReport;
  };
  'logs.query': {
    /** `from`/`to`: ms since the epoch; at most `limit` (default 1000, at most 5000) records, the latest ones. */
    params: LogFilter & { from?: number; to?: number; limit?: number };
    result: { records: LogView[]; truncated: boolean; oldest?: number };
  };
}
