// The one shape of a request's handler and of the tables that route requests to handlers: run-request routes every
// request type through one table typed by it, so a type without a handler, or a handler whose answer is not the
// type's result, does not compile.
import type { Locale } from '@aalis/core';
import type { Account, RequestType, ResultOf } from '@aalis/session-client';
import type { Peer, ServerDeps } from './server-deps.js';

/** A request's parameters as they came (the frame without `id` and `type`); handlers read them with params.ts. */
export type Params = Record<string, unknown>;

export interface RequestOrigin {
  account: Account;
  /** The socket, when the request came over one. */
  peer?: Peer;
  redact: (text: string) => string;
  /** The connection's locale (docs/session-protocol.md 「Locale」); the host's when absent. */
  locale?: Locale;
  /** The login the request came with (its key) and the client's address: account.* requests need them. */
  loginKey?: string;
  address?: string;
}

/** What a handler may need beyond deps, account and parameters: the request's type and where it came from. */
export interface RequestContext<T extends RequestType> {
  readonly type: T;
  readonly origin: RequestOrigin;
  /** The host's locale; `deps.locale` is the connection's. */
  readonly hostLocale: Locale;
}

/** Runs one request: `deps` speak the connection's locale; owner-only requests reach it from owners only. */
export type Handler<T extends RequestType> = (
  deps: ServerDeps,
  account: Account,
  params: Params,
  request: RequestContext<T>,
) => ResultOf<T> | Promise<ResultOf<T>>;

/** A handler for each of the request types K. */
export type Routes<K extends RequestType> = { readonly [T in K]: Handler<T> };
