// Conformance: login is enforced on every route and on the socket; links work once and expire; CSRF, Origin and
// Host are checked; a non-owner sees only its own sessions and is refused owner actions.
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { storage } from '@aalis/api-storage';
import { SessionClientError } from '@aalis/session-client';
import { type StreamStep, textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadOrCreateSecret, mintLinkToken } from '../../../../plugins/plugin-session-server/src/login-link.js';
import { clientFor, hostPerFile, loginCookie, Recorder } from './harness.case.js';

const { host, track } = hostPerFile({ login: false });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof SessionClientError ? error.code : String(error);
  }
}

function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(host.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('login', () => {
  it('answers every API route and the socket with LOGIN_REQUIRED without a login, and shows no content', async () => {
    const owner = track(clientFor(host, await loginCookie(host)));
    await owner.connect();
    const { session } = await owner.request('session.create', {});
    host.model.enqueue(textReply('SECRET REPLY'));
    const recorder = new Recorder();
    await owner.subscribe(session.id, recorder.handlers).ready;
    await owner.send({ sessionId: session.id, text: 'SECRET QUESTION' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);

    for (const [method, path] of [
      ['GET', '/api/v1/me'],
      ['POST', '/api/v1/call'],
      ['POST', '/api/v1/logout'],
      ['GET', `/api/v1/attachments/${encodeURIComponent(session.id)}/x/0`],
      ['GET', '/api/v1/anything'],
    ] as const) {
      const response = await fetch(`${host.base}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ type: 'sessions.list' }) } : {}),
      });
      const text = await response.text();
      expect(response.status, path).toBe(401);
      expect(JSON.parse(text).error.code, path).toBe('AALIS_WEBUI_LOGIN_REQUIRED');
      expect(text).not.toContain('SECRET');
    }
    const anonymous = track(clientFor(host, undefined));
    expect(await codeOf(anonymous.connect())).toBe('AALIS_WEBUI_LOGIN_REQUIRED');
    expect(anonymous.connectionState).toBe('logged-out');
    const forged = track(clientFor(host, 'aalis_login=forged-value'));
    expect(await codeOf(forged.connect())).toBe('AALIS_WEBUI_LOGIN_EXPIRED');
    // The page itself needs no login and carries no conversation.
    const page = await fetch(`${host.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('the page');
    expect(html).not.toContain('SECRET');
  });

  it('exchanges a link once, within its time, for an HttpOnly SameSite=Strict cookie', async () => {
    const link = host.aalis.webui!.loginLink()!;
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^aalis_login=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const again = await fetch(link, { redirect: 'manual', headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } });
    expect(again.status).toBe(401);
    // A sentence in the browser's language as the heading; the code in small print below.
    const page = await again.text();
    expect(page).toMatch(/<h1>这个登录链接已经用过了[^<]*<\/h1>/);
    expect(page).toMatch(/<small>[^<]*<code>AALIS_WEBUI_LINK_USED<\/code><\/small>/);
    expect(page).not.toContain('<h1>AALIS_WEBUI_LINK_USED</h1>');

    const token = new URL(host.aalis.webui!.loginLink()!).searchParams.get('token')!;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const post = (body: unknown) =>
      fetch(`${host.base}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, code: (await response.json()).error?.code }));
    expect(await post({ token: tampered })).toEqual({ status: 401, code: 'AALIS_WEBUI_LINK_INVALID' });
    const secret = loadOrCreateSecret(join(host.dir, 'data'));
    const old = mintLinkToken({ secret, userId: 'owner', now: Date.now() - 16 * 60_000 });
    expect(await post({ token: old })).toEqual({ status: 401, code: 'AALIS_WEBUI_LINK_EXPIRED' });
    const stranger = mintLinkToken({ secret, userId: 'mallory' });
    expect(await post({ token: stranger })).toEqual({ status: 401, code: 'AALIS_WEBUI_LINK_INVALID' });
    expect(await post({ token })).toMatchObject({ status: 200 });
  });

  it('a link opened again by a browser that is logged in goes on to the page; without a login it is refused', async () => {
    const link = host.aalis.webui!.loginLink()!;
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const again = await fetch(link, { redirect: 'manual', headers: { cookie } });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/');
    expect(again.headers.get('set-cookie')).toBeNull();
    const garbage = await fetch(`${host.base}/?token=garbage`, { redirect: 'manual', headers: { cookie } });
    expect(garbage.status).toBe(303);
    const me = await fetch(`${host.base}/api/v1/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const stranger = await fetch(link, { redirect: 'manual' });
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).toContain('AALIS_WEBUI_LINK_USED');
    const stale = await fetch(link, { redirect: 'manual', headers: { cookie: 'aalis_login=not-a-login' } });
    expect(stale.status).toBe(401);
  });

  it('refuses POSTs without the CSRF token, foreign origins, and foreign Host names', async () => {
    const cookie = await loginCookie(host);
    const call = (headers: Record<string, string>) =>
      fetch(`${host.base}/api/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...headers },
        body: JSON.stringify({ type: 'ping' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    expect(await call({})).toMatchObject({ status: 403, body: { error: { code: 'AALIS_WEBUI_CSRF_REFUSED' } } });
    const me = await (await fetch(`${host.base}/api/v1/me`, { headers: { cookie } })).json();
    expect(await call({ 'x-aalis-csrf': me.csrfToken })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call({ 'x-aalis-csrf': me.csrfToken, origin: 'http://evil.example' })).toMatchObject({
      status: 403,
      body: { error: { code: 'AALIS_WEBUI_ORIGIN_REFUSED' } },
    });
    const foreign = track(clientFor(host, cookie, 'http://evil.example'));
    expect(await codeOf(foreign.connect())).toBe('AALIS_WEBUI_ORIGIN_REFUSED');
    const rebound = await rawGet('/api/v1/me', { host: `evil.example:${new URL(host.base).port}`, cookie });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('AALIS_WEBUI_HOST_REFUSED');
  });

  it('ends a login on logout and when it expires: the socket says goodbye and closes', async () => {
    const cookie = await loginCookie(host);
    const client = track(clientFor(host, cookie));
    await client.connect();
    await client.logout();
    const me = await fetch(`${host.base}/api/v1/me`, { headers: { cookie } });
    expect((await me.json()).error.code).toBe('AALIS_WEBUI_LOGIN_EXPIRED');

    const expiring = await loginCookie(host);
    const second = track(clientFor(host, expiring));
    await second.connect();
    const database = host.aalis.app.services.selected(storage)!.impl.database();
    database.connection.prepare('UPDATE webui_logins SET expires_at = ?').run(Date.now() - 1);
    expect(await codeOf(second.request('ping', {}))).toMatch(/AALIS_WEBUI_LOGIN_(REQUIRED|EXPIRED)/);
    expect(second.connectionState).toBe('logged-out');
  });

  it('a raw socket without a cookie gets a coded error frame and close 4401', async () => {
    const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
      headers: { origin: host.base },
    });
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    const code = await new Promise<number>((resolve) => socket.on('close', (closeCode) => resolve(closeCode)));
    expect(code).toBe(4401);
    expect(JSON.parse(frames[0]!)).toMatchObject({ type: 'error', error: { code: 'AALIS_WEBUI_LOGIN_REQUIRED' } });
  });
});

describe('accounts', () => {
  it('a non-owner sees only its own sessions and is refused owner actions and owner-level settings', async () => {
    const owner = track(clientFor(host, await loginCookie(host)));
    const alice = track(clientFor(host, await loginCookie(host, 'alice')));
    const hello = await alice.connect();
    expect(hello.account).toMatchObject({ userId: 'alice', displayName: 'Alice', owner: false });
    await owner.connect();
    const { session: ownerSession } = await owner.request('session.create', { title: 'owner only' });
    const { session: aliceSession } = await alice.request('session.create', { title: 'alice' });
    const listed = (await alice.request('sessions.list', {})).sessions.map((session) => session.id);
    expect(listed).toContain(aliceSession.id);
    expect(listed).not.toContain(ownerSession.id);
    expect((await owner.request('sessions.list', {})).sessions.map((session) => session.id)).toContain(aliceSession.id);

    expect(await codeOf(alice.request('subscribe', { sessionId: ownerSession.id }))).toBe('AALIS_WEBUI_FORBIDDEN');
    expect(await codeOf(alice.request('send', { sessionId: ownerSession.id, text: 'hi' }))).toBe(
      'AALIS_WEBUI_FORBIDDEN',
    );
    expect(await codeOf(alice.request('delete', { sessionId: ownerSession.id }))).toBe('AALIS_WEBUI_FORBIDDEN');
    for (const type of ['admin.plugins', 'admin.preferences.get', 'logs.subscribe'] as const) {
      expect(await codeOf(alice.request(type, {})), type).toBe('AALIS_WEBUI_FORBIDDEN');
    }
    expect(await codeOf(alice.request('admin.preferences.set', { service: 'llm', value: 'openai/test-model' }))).toBe(
      'AALIS_WEBUI_FORBIDDEN',
    );
    const { settings } = await alice.request('settings.get', { sessionId: aliceSession.id });
    const historyLimit = settings.find((setting) => setting.key === 'historyLimit')!;
    expect(historyLimit).toMatchObject({ level: 'owner', writable: false });
    expect(
      await codeOf(alice.request('settings.set', { sessionId: aliceSession.id, key: 'historyLimit', value: 10 })),
    ).toBe('AALIS_SETTINGS_FORBIDDEN');
    // The owner may.
    const { setting } = await owner.request('settings.set', {
      sessionId: aliceSession.id,
      key: 'historyLimit',
      value: 10,
    });
    expect(setting).toMatchObject({ value: 10, source: 'session' });

    // A turn the owner opened in alice's session: alice did not take part, so she cannot stop it; the owner can.
    const steps: StreamStep[] = [{ role: 'assistant' }];
    for (let index = 0; index < 30; index++) steps.push({ text: 'word ' }, { delayMs: 30 });
    steps.push({ finish: 'stop' }, { done: true });
    host.model.enqueue({ type: 'stream', steps });
    const watcher = new Recorder();
    await alice.subscribe(aliceSession.id, watcher.handlers).ready;
    await owner.send({ sessionId: aliceSession.id, text: 'owner speaking' });
    await watcher.until(() => watcher.of('text.delta').length >= 1);
    expect(await codeOf(alice.request('stop', { sessionId: aliceSession.id }))).toBe('AALIS_WEBUI_FORBIDDEN');
    expect(await owner.request('stop', { sessionId: aliceSession.id })).toEqual({ stopped: true });
    await watcher.until(() => watcher.of('turn.ended').length === 1);
    // Her own turn she may stop.
    host.model.enqueue({ type: 'stream', steps });
    await alice.send({ sessionId: aliceSession.id, text: 'alice speaking' });
    await watcher.until(() => watcher.of('turn.started').length === 2 && watcher.of('text.delta').length > 1);
    await watcher.until(() => watcher.events.filter((entry) => entry.event.type === 'input').length >= 2);
    expect(await alice.request('stop', { sessionId: aliceSession.id })).toEqual({ stopped: true });
    await watcher.until(() => watcher.of('turn.ended').length === 2);
  });

  it('a non-owner below the command level is refused compact with FORBIDDEN, not a reply that reads as done', async () => {
    const alice = track(clientFor(host, await loginCookie(host, 'alice')));
    await alice.connect();
    const { session } = await alice.request('session.create', { title: 'alice compacts' });
    host.model.enqueue(textReply('a reply to keep'));
    const watcher = new Recorder();
    await alice.subscribe(session.id, watcher.handlers).ready;
    await alice.send({ sessionId: session.id, text: 'something to compact' });
    await watcher.until(() => watcher.of('turn.ended').length === 1);
    const refused = await alice.request('compact', { sessionId: session.id }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionClientError);
    expect(refused).toMatchObject({ code: 'AALIS_WEBUI_FORBIDDEN', details: { command: '/compact' } });
    expect((refused as Error).message).toContain('/compact');
    expect((refused as Error).message).not.toContain('(AALIS_COMMAND_FORBIDDEN)');
    // Nothing was compacted: the history still holds the turn; /clear (level 0 by default) is still allowed.
    const timeline = await alice.request('sessions.list', {});
    expect(timeline.sessions.find((entry) => entry.id === session.id)?.lastTurn?.outcome).toBe('replied');
    expect(await alice.request('clear', { sessionId: session.id })).toMatchObject({ reply: expect.any(String) });
  });
});
