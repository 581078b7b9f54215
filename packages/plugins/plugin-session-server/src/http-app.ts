// The HTTP side (Hono): the one-time link exchange, me / login / logout / call, stored attachments, and the page.
// Every route passes the Host check; every API route the login check; every POST the Origin and CSRF checks.
import { workflow } from '@aalis/api-workflow';
import { AalisError, type Locale } from '@aalis/core';
import { isModelImageType } from '@aalis/schema-message';
import { PROTOCOL_VERSION } from '@aalis/session-client';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { passwordLogin } from './accounts/password-login.js';
import { parseBoundedJson, readBodyWithin, readStreamWithin } from './body-reader.js';
import { acceptedLocale, clientLocale } from './client-locale.js';
import type { ConnectionLimits } from './connection-limits.js';
import {
  accountOf,
  CSRF_HEADER,
  checkHost,
  checkOrigin,
  clearedLoginCookie,
  loginCookie,
  requireLogin,
  sameSecret,
} from './login-checks.js';
import { verifyLinkToken } from './login-link.js';
import type { Login } from './login-store.js';
import { type RequestOrigin, readRequestFrame, runRequest } from './run-request.js';
import type { ServerDeps } from './server-deps.js';
import { frameMalformed, linkInvalid, serverErrors, toProtocolError } from './server-errors.js';
import { canSee } from './session-access.js';
import { errorPage, type PageServer } from './static-page.js';

export interface HttpAppOptions {
  deps: ServerDeps;
  secret: Buffer;
  /** The Host values accepted and the address to name in errors (known once the server listens). */
  hosts(): { accepted: ReadonlySet<string>; expected: string };
  page: PageServer;
  redact(text: string): string;
  /** A login ended: close its sockets. */
  loggedOut(loginKey: string): void;
  limits(): Record<string, number>;
  /** Requests in progress per login (shared with the sockets). */
  connections: ConnectionLimits;
}

/** The client's address (the per-address login limit): the socket's peer; behind a proxy, the proxy's. */
function addressOf(c: Context<Env>): string {
  return c.env?.incoming?.socket.remoteAddress ?? 'unknown';
}

/** A login exchange's body is a token or an account and password: plenty, and no unauthenticated client may send more. */
export const LOGIN_BODY_BYTES = 4096;

/** Served by @hono/node-server: the Node request is at hand, to read its body as it streams. */
type Env = { Bindings: Partial<HttpBindings> };

export function createHttpApp(options: HttpAppOptions): Hono<Env> {
  const { deps } = options;
  const locale: Locale = deps.locale;
  const app = new Hono<Env>();
  const fail = (c: Context<Env>, error: unknown) => {
    const { error: body, status } = toProtocolError(error, clientLocale(c.req.header('x-aalis-locale'), locale));
    if (status >= 500) deps.log.error('request failed', { path: c.req.path, error: String(error) });
    return c.json({ ok: false, error: body }, status as 400);
  };

  app.use('*', async (c, next) => {
    try {
      const { accepted, expected } = options.hosts();
      checkHost(c.req.header('host'), accepted, expected);
    } catch (error) {
      return fail(c, error);
    }
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    await next();
  });

  const hasLiveLogin = (cookieHeader: string | undefined): boolean => {
    try {
      const login = requireLogin(deps, cookieHeader);
      return accountOf(deps, login.userId) !== undefined;
    } catch {
      return false;
    }
  };

  const exchange = (token: string, userAgent: string | undefined) => {
    const check = verifyLinkToken({ secret: options.secret, token, ttlMs: deps.config.linkTtlMinutes * 60_000 });
    if (!check.ok) {
      if (check.reason === 'expired')
        throw serverErrors.AALIS_WEBUI_LINK_EXPIRED({ minutes: deps.config.linkTtlMinutes });
      throw linkInvalid(check.reason, locale);
    }
    const account = accountOf(deps, check.userId);
    if (!account) throw linkInvalid('unknown account', locale);
    const expiresAt = check.issuedAt + deps.config.linkTtlMinutes * 60_000 + 60_000;
    if (!deps.logins.useNonce(check.nonce, expiresAt)) throw serverErrors.AALIS_WEBUI_LINK_USED();
    const ttlMs = deps.config.loginTtlDays * 86_400_000;
    const { cookie, login } = deps.logins.create(account.userId, ttlMs, Date.now(), {
      method: 'link',
      ...(userAgent !== undefined ? { userAgent } : {}),
    });
    deps.log.info('WebUI login', { account: account.userId });
    return { cookie: loginCookie(cookie, Math.floor(ttlMs / 1000)), login, account };
  };

  const loggedIn = (c: Context<Env>): { login: Login; origin: RequestOrigin } => {
    const login = requireLogin(deps, c.req.header('cookie'));
    const account = accountOf(deps, login.userId);
    if (!account) throw serverErrors.AALIS_WEBUI_LOGIN_EXPIRED();
    return { login, origin: { account, redact: options.redact, loginKey: login.key, address: addressOf(c) } };
  };

  const mutation = (c: Context<Env>, login?: Login) => {
    checkOrigin(c.req.header('origin'), c.req.header('host') ?? '', false);
    if (login && !sameSecret(c.req.header(CSRF_HEADER), login.csrfToken)) {
      throw serverErrors.AALIS_WEBUI_CSRF_REFUSED();
    }
  };

  /** The JSON body, read within `limit` bytes as it streams and within the nesting bound. */
  const body = async (c: Context<Env>, limit: number): Promise<unknown> => {
    const length = Number(c.req.header('content-length') ?? 0);
    if (length > limit) throw serverErrors.AALIS_WEBUI_FRAME_TOO_LARGE({ size: length, limit });
    const incoming = c.env?.incoming;
    const bytes = incoming ? await readBodyWithin(incoming, limit) : await readStreamWithin(c.req.raw.body, limit);
    return parseBoundedJson(bytes.toString('utf8'), deps.config.maxJsonDepth, locale, 'the body is not JSON');
  };

  app.get('/api/v1/me', (c) => {
    try {
      const { login, origin } = loggedIn(c);
      return c.json({
        ok: true,
        account: origin.account,
        csrfToken: login.csrfToken,
        serverId: deps.serverId,
        protocol: PROTOCOL_VERSION,
        limits: options.limits(),
        locale,
      });
    } catch (error) {
      return fail(c, error);
    }
  });

  app.post('/api/v1/login', async (c) => {
    try {
      mutation(c);
      const given = ((await body(c, LOGIN_BODY_BYTES)) ?? {}) as {
        token?: unknown;
        account?: unknown;
        password?: unknown;
      };
      const userAgent = c.req.header('user-agent');
      if (typeof given.token !== 'string' && given.account !== undefined) {
        // An account and its password (accounts/password-login.ts), beside the one-time link.
        const done = await passwordLogin(deps, {
          account: given.account,
          password: given.password,
          address: addressOf(c),
          ...(userAgent !== undefined ? { userAgent } : {}),
        });
        c.header('set-cookie', loginCookie(done.cookie, Math.floor(done.ttlMs / 1000)));
        return c.json({ ok: true, account: done.account, csrfToken: done.login.csrfToken });
      }
      if (typeof given.token !== 'string') throw linkInvalid('no token', locale);
      const { cookie, login, account } = exchange(given.token, userAgent);
      c.header('set-cookie', cookie);
      return c.json({ ok: true, account, csrfToken: login.csrfToken });
    } catch (error) {
      const retryAfter = AalisError.isInstance(error) ? error.details.retryAfterSeconds : undefined;
      if (typeof retryAfter === 'number') c.header('retry-after', String(retryAfter));
      return fail(c, error);
    }
  });

  app.post('/api/v1/logout', (c) => {
    try {
      const { login } = loggedIn(c);
      mutation(c, login);
      deps.logins.end(login.key);
      options.loggedOut(login.key);
      c.header('set-cookie', clearedLoginCookie());
      return c.json({ ok: true });
    } catch (error) {
      return fail(c, error);
    }
  });

  app.post('/api/v1/call', async (c) => {
    try {
      const { login, origin } = loggedIn(c);
      mutation(c, login);
      const result = await options.connections.request(login.key, async () => {
        const { type, params } = readRequestFrame(await body(c, deps.config.maxFrameBytes), false, locale);
        return runRequest(
          deps,
          { ...origin, locale: clientLocale(c.req.header('x-aalis-locale'), locale) },
          type,
          params,
        );
      });
      return c.json({ ok: true, result });
    } catch (error) {
      return fail(c, error);
    }
  });

  // A webhook starts a workflow: a machine calls it, so no login; the workflow's own secret instead
  // (Authorization: Bearer <plugins.workflow.webhookSecret>), checked by the workflow service in constant time.
  app.post('/api/v1/workflows/:name/webhook', async (c) => {
    try {
      const workflows = deps.services.selected(workflow)?.impl;
      if (!workflows) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'workflow' });
      const secret = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
      const inputs = c.req.header('content-length') === '0' ? {} : await body(c, deps.config.maxFrameBytes);
      if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
        throw frameMalformed('not a JSON object', locale);
      }
      const run = await workflows.webhook(c.req.param('name'), secret, inputs as Record<string, unknown>);
      return c.json({ ok: true, result: { runId: run.id, status: run.status } }, 202);
    } catch (error) {
      return fail(c, error);
    }
  });

  app.get('/api/v1/attachments/:sessionId/:messageId/:index', async (c) => {
    try {
      const { origin } = loggedIn(c);
      const sessionId = c.req.param('sessionId');
      const messageId = c.req.param('messageId');
      if (!canSee(origin.account, sessionId)) {
        throw serverErrors.AALIS_WEBUI_FORBIDDEN({
          reason: deps.translate({ key: 'sessionServer.forbidden.session' }),
        });
      }
      const messages = deps.memory.available ? await deps.memory.use.readAll(sessionId) : [];
      const attachment = messages.find((message) => message.id === messageId)?.attachments?.[
        Number(c.req.param('index'))
      ];
      const data = attachment?.data ?? attachment?.url?.replace(/^data:[^;,]+;base64,/, '');
      if (!attachment || data === undefined || /^https?:/.test(data)) {
        throw serverErrors.AALIS_WEBUI_NOT_FOUND({ path: c.req.path });
      }
      const mimeType =
        attachment.mimeType ?? /^data:([^;,]+);/.exec(attachment.url ?? '')?.[1] ?? 'application/octet-stream';
      // Only the raster types are served as such: an image/svg+xml a room member's server declared (or any other
      // type) opened on its own would run its scripts on this origin, with the owner's login.
      const raster = isModelImageType(mimeType.toLowerCase());
      c.header('content-type', raster ? mimeType.toLowerCase() : 'application/octet-stream');
      if (!raster) c.header('content-disposition', 'attachment');
      c.header('content-security-policy', "default-src 'none'; sandbox");
      c.header('cache-control', 'private, max-age=3600');
      return c.body(Buffer.from(data, 'base64'));
    } catch (error) {
      return fail(c, error);
    }
  });

  app.all('/api/*', (c) => {
    try {
      loggedIn(c);
      throw serverErrors.AALIS_WEBUI_NOT_FOUND({ path: c.req.path.slice(0, 200) });
    } catch (error) {
      return fail(c, error);
    }
  });

  // The one-time link: exchange, set the cookie, go to the page without the token in the address bar.
  app.get('/', async (c, next) => {
    const token = c.req.query('token');
    if (token === undefined) return next();
    try {
      const { cookie } = exchange(token, c.req.header('user-agent'));
      c.header('set-cookie', cookie);
      c.header('cache-control', 'no-store');
      return c.redirect('/', 303);
    } catch (error) {
      // A link opened again (a second click, another tab, a restored window) by a browser that is logged in
      // goes on to the page with the login it has; the link itself grants nothing more.
      if (hasLiveLogin(c.req.header('cookie'))) {
        c.header('cache-control', 'no-store');
        return c.redirect('/', 303);
      }
      // The browser's language: the page that says why comes before any page of ours could ask for one.
      const pageLocale = acceptedLocale(c.req.header('accept-language'), locale);
      const { error: problem } = toProtocolError(error, pageLocale);
      return c.html(errorPage(pageLocale, problem.code, problem.message), 401);
    }
  });

  app.get('*', (c) => options.page.serve(c));
  return app;
}
