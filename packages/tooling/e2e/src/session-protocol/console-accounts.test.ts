// Conformance: accounts made by the owner (admin.accounts.*), password login beside the link, login sessions listed
// and revoked (account.sessions.*), a person's own password (account.password.set), the usage report (admin.usage)
// and the logs query (logs.query, logs.subscribe's filters). A non-owner is refused every owner request; bad input,
// a wrong password and a revoked login change nothing; no password or hash appears in a response or the log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LogView, type SessionClient, SessionClientError } from '@aalis/session-client';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, Recorder, waitFor } from './harness.case.js';

const { host, track, connected } = hostPerFile({
  providerConfig:
    '    models: [{ id: test-model, name: Test Model, prices: { promptPerMillion: 1000, completionPerMillion: 2000, currency: USD } }]\n',
});

const BOB_PASSWORD = 'bob-first-secret-9';
const BOB_NEW_PASSWORD = 'bob-second-secret-7';
const OWNER_PASSWORD = 'owner-phone-secret-3';
const ALICE_PASSWORD = 'alice-set-by-owner-5';
/** Every response body read in this file, to look for passwords and hashes in. */
const bodies: string[] = [];

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    bodies.push(JSON.stringify(await promise));
    return 'resolved';
  } catch (error) {
    if (error instanceof SessionClientError) bodies.push(error.message);
    return error instanceof SessionClientError ? error.code : String(error);
  }
}

async function passwordLogin(
  account: string,
  password: string,
  userAgent = 'conformance-agent/1.0',
): Promise<{ status: number; code?: string; cookie?: string; retryAfter?: string | null; body: string }> {
  const response = await fetch(`${host.base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: host.base, 'user-agent': userAgent },
    body: JSON.stringify({ account, password }),
  });
  const body = await response.text();
  bodies.push(body);
  const parsed = JSON.parse(body) as { error?: { code: string } };
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  return {
    status: response.status,
    body,
    retryAfter: response.headers.get('retry-after'),
    ...(parsed.error ? { code: parsed.error.code } : {}),
    ...(cookie ? { cookie } : {}),
  };
}

async function clientOf(cookie: string): Promise<SessionClient> {
  const client = track(clientFor(host, cookie));
  await client.connect();
  return client;
}

async function aliceClient(): Promise<SessionClient> {
  return clientOf(await loginCookie(host, 'alice'));
}

describe('accounts', () => {
  it('refuses a non-owner every owner request of the console, and changes nothing', async () => {
    const alice = await aliceClient();
    const owner = await connected();
    const before = await owner.request('admin.accounts.list', {});
    const refused = [
      alice.request('admin.accounts.list', {}),
      alice.request('admin.accounts.create', { userId: 'sneaky', password: 'sneaky-password-1' }),
      alice.request('admin.accounts.update', { userId: 'alice', level: 99 }),
      alice.request('admin.accounts.delete', { userId: 'alice' }),
      alice.request('admin.accounts.logins', { userId: 'owner' }),
      alice.request('admin.accounts.logins.revoke', { userId: 'owner', loginId: '0000000000000000' }),
      alice.request('admin.usage', { groupBy: 'day' }),
      alice.request('logs.query', {}),
      alice.request('logs.subscribe', {}),
    ];
    for (const request of refused) expect(await codeOf(request)).toBe('AALIS_WEBUI_FORBIDDEN');
    expect(await owner.request('admin.accounts.list', {})).toEqual(before);
    expect(before.accounts.map((account) => [account.userId, account.source, account.owner])).toEqual([
      ['owner', 'config', true],
      ['alice', 'config', false],
    ]);
  });

  it('creates an account with a level and a password; bad input is refused and creates nothing', async () => {
    const owner = await connected();
    const bad = [
      [{ userId: 'bob smith', password: BOB_PASSWORD }, 'AALIS_WEBUI_BAD_REQUEST'],
      [{ userId: 'bob', password: 'short' }, 'AALIS_WEBUI_PASSWORD_WEAK'],
      [{ userId: 'bob', password: 12345678 }, 'AALIS_WEBUI_BAD_REQUEST'],
      [{ userId: 'bob', level: -1 }, 'AALIS_WEBUI_BAD_REQUEST'],
      [{ userId: 'bob', level: 1.5 }, 'AALIS_WEBUI_BAD_REQUEST'],
      [{ userId: 'alice' }, 'AALIS_WEBUI_ACCOUNT_EXISTS'],
      [{ userId: 'owner' }, 'AALIS_WEBUI_ACCOUNT_EXISTS'],
    ] as const;
    for (const [params, code] of bad) {
      expect(await codeOf(owner.request('admin.accounts.create', params as never)), JSON.stringify(params)).toBe(code);
    }
    expect((await owner.request('admin.accounts.list', {})).accounts).toHaveLength(2);

    const { account } = await owner.request('admin.accounts.create', {
      userId: 'bob',
      displayName: 'Bob',
      level: 2,
      password: BOB_PASSWORD,
    });
    bodies.push(JSON.stringify(account));
    expect(account).toMatchObject({
      userId: 'bob',
      displayName: 'Bob',
      owner: false,
      level: 2,
      source: 'page',
      hasPassword: true,
      logins: 0,
    });
    expect(await codeOf(owner.request('admin.accounts.create', { userId: 'bob' }))).toBe('AALIS_WEBUI_ACCOUNT_EXISTS');
    const listed = (await owner.request('admin.accounts.list', {})).accounts;
    expect(listed.map((entry) => entry.userId)).toEqual(['owner', 'alice', 'bob']);
  });

  it('logs in with the password, as the account with its level; a wrong password or unknown account is refused alike', async () => {
    const wrong = await passwordLogin('bob', 'not-the-password');
    const unknown = await passwordLogin('nobody', BOB_PASSWORD);
    expect([wrong.status, wrong.code, wrong.cookie]).toEqual([401, 'AALIS_WEBUI_LOGIN_FAILED', undefined]);
    expect([unknown.status, unknown.code]).toEqual([401, 'AALIS_WEBUI_LOGIN_FAILED']);
    expect(JSON.parse(unknown.body).error.message).toBe(JSON.parse(wrong.body).error.message);
    // An account made without a password logs in only by link.
    const owner = await connected();
    await owner.request('admin.accounts.create', { userId: 'linkonly' });
    expect((await passwordLogin('linkonly', '')).code).toBe('AALIS_WEBUI_LOGIN_FAILED');

    const ok = await passwordLogin('bob', BOB_PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.cookie).toMatch(/^aalis_login=/);
    const bob = await clientOf(ok.cookie!);
    const me = await fetch(`${host.base}/api/v1/me`, { headers: { cookie: ok.cookie! } }).then((r) => r.json());
    expect(me.account).toEqual({ userId: 'bob', displayName: 'Bob', owner: false, level: 2 });
    // Bob is an account like alice: his own sessions only, no owner requests.
    const { session } = await bob.request('session.create', {});
    expect(session.id).toMatch(/^webui:bob:/);
    expect(await codeOf(bob.request('admin.accounts.list', {}))).toBe('AALIS_WEBUI_FORBIDDEN');
  });

  it('lists the login sessions with device and last use; a revoked login is refused and its socket closed', async () => {
    const first = await passwordLogin('bob', BOB_PASSWORD, 'Mozilla/5.0 (Phone) Test');
    const second = await passwordLogin('bob', BOB_PASSWORD, 'Mozilla/5.0 (Desktop) Test');
    const phone = await clientOf(first.cookie!);
    const desktop = await clientOf(second.cookie!);
    const { sessions } = await desktop.request('account.sessions.list', {});
    bodies.push(JSON.stringify(sessions));
    const phoneLogin = sessions.find((login) => login.device === 'Mozilla/5.0 (Phone) Test');
    const desktopLogin = sessions.find((login) => login.device === 'Mozilla/5.0 (Desktop) Test');
    expect(phoneLogin).toMatchObject({ method: 'password', current: false });
    expect(desktopLogin).toMatchObject({ method: 'password', current: true });
    expect(desktopLogin!.lastUsedAt).toBeGreaterThanOrEqual(desktopLogin!.createdAt);
    expect(desktopLogin!.id).toMatch(/^[0-9a-f]{16}$/);

    expect(await codeOf(desktop.request('account.sessions.revoke', { loginId: '0000000000000000' }))).toBe(
      'AALIS_WEBUI_LOGIN_UNKNOWN',
    );
    // Another account cannot revoke bob's login: it is not among its own.
    const alice = await aliceClient();
    expect(await codeOf(alice.request('account.sessions.revoke', { loginId: phoneLogin!.id }))).toBe(
      'AALIS_WEBUI_LOGIN_UNKNOWN',
    );
    const states: string[] = [];
    phone.on('state', (state) => states.push(state));
    expect(await desktop.request('account.sessions.revoke', { loginId: phoneLogin!.id })).toEqual({ revoked: true });
    await waitFor(() => states.includes('logged-out'));
    const refused = await fetch(`${host.base}/api/v1/me`, { headers: { cookie: first.cookie! } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('AALIS_WEBUI_LOGIN_EXPIRED');
    const left = (await desktop.request('account.sessions.list', {})).sessions.map((login) => login.id);
    expect(left).not.toContain(phoneLogin!.id);
    expect(left).toContain(desktopLogin!.id);
  });

  it("lets the owner list and end another account's login; each change of an account is audited without its password", async () => {
    const owner = await connected();
    const login = await passwordLogin('bob', BOB_PASSWORD, 'Mozilla/5.0 (Tablet) Test');
    const tablet = await clientOf(login.cookie!);
    const states: string[] = [];
    tablet.on('state', (state) => states.push(state));
    const { sessions } = await owner.request('admin.accounts.logins', { userId: 'bob' });
    bodies.push(JSON.stringify(sessions));
    const target = sessions.find((entry) => entry.device === 'Mozilla/5.0 (Tablet) Test');
    expect(target).toMatchObject({ method: 'password', current: false });
    expect(sessions.every((entry) => !entry.current)).toBe(true);

    expect(await codeOf(owner.request('admin.accounts.logins', { userId: 'ghost' }))).toBe(
      'AALIS_WEBUI_ACCOUNT_UNKNOWN',
    );
    // A login id of bob's is not one of alice's: nothing ends.
    expect(await codeOf(owner.request('admin.accounts.logins.revoke', { userId: 'alice', loginId: target!.id }))).toBe(
      'AALIS_WEBUI_LOGIN_UNKNOWN',
    );
    expect(await codeOf(owner.request('admin.accounts.logins.revoke', { userId: 'bob' } as never))).toBe(
      'AALIS_WEBUI_BAD_REQUEST',
    );
    expect((await fetch(`${host.base}/api/v1/me`, { headers: { cookie: login.cookie! } })).status).toBe(200);

    expect(await owner.request('admin.accounts.logins.revoke', { userId: 'bob', loginId: target!.id })).toEqual({
      revoked: true,
    });
    await waitFor(() => states.includes('logged-out'));
    const refused = await fetch(`${host.base}/api/v1/me`, { headers: { cookie: login.cookie! } });
    expect([refused.status, (await refused.json()).error.code]).toEqual([401, 'AALIS_WEBUI_LOGIN_EXPIRED']);
    const left = (await owner.request('admin.accounts.logins', { userId: 'bob' })).sessions.map((entry) => entry.id);
    expect(left).not.toContain(target!.id);

    const { entries } = await owner.request('admin.audit.list', { limit: 200 });
    bodies.push(JSON.stringify(entries));
    const keys = entries.map((entry) => `${entry.action} ${entry.key}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'admin.accounts.create accounts.bob',
        'admin.accounts.create accounts.bob.password',
        `admin.accounts.logins.revoke accounts.bob.logins.${target!.id}`,
      ]),
    );
    // Bob's own revocation (the test before) is his, under his name.
    const own = entries.find((entry) => entry.action === 'account.sessions.revoke');
    expect(own?.key).toMatch(/^accounts\.bob\.logins\.[0-9a-f]{16}$/);
    expect(own?.actor.userId).toBe('bob');
    const made = entries.find((entry) => entry.key === 'accounts.bob');
    expect(made?.new).toEqual({ displayName: 'Bob', level: 2 });
    expect(made?.actor.userId).toBe('owner');
    const password = entries.find((entry) => entry.key === 'accounts.bob.password');
    expect(password?.secret).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(BOB_PASSWORD);
  });

  it('changes a password with the current one; a wrong current one changes nothing', async () => {
    const bob = await clientOf((await passwordLogin('bob', BOB_PASSWORD)).cookie!);
    expect(await codeOf(bob.request('account.password.set', { password: BOB_NEW_PASSWORD }))).toBe(
      'AALIS_WEBUI_PASSWORD_WRONG',
    );
    expect(
      await codeOf(bob.request('account.password.set', { password: BOB_NEW_PASSWORD, current: 'guess-guess' })),
    ).toBe('AALIS_WEBUI_PASSWORD_WRONG');
    expect(await codeOf(bob.request('account.password.set', { password: 'short', current: BOB_PASSWORD }))).toBe(
      'AALIS_WEBUI_PASSWORD_WEAK',
    );
    expect((await passwordLogin('bob', BOB_PASSWORD)).status).toBe(200);
    const set = await bob.request('account.password.set', { password: BOB_NEW_PASSWORD, current: BOB_PASSWORD });
    expect(set.passwordSetAt).toBeGreaterThan(0);
    expect((await passwordLogin('bob', BOB_PASSWORD)).code).toBe('AALIS_WEBUI_LOGIN_FAILED');
    expect((await passwordLogin('bob', BOB_NEW_PASSWORD)).status).toBe(200);
  });

  it('lets the owner logged in by link set a first password, and set one for a YAML account', async () => {
    expect((await passwordLogin('owner', OWNER_PASSWORD)).code).toBe('AALIS_WEBUI_LOGIN_FAILED');
    const owner = await connected();
    await owner.request('account.password.set', { password: OWNER_PASSWORD });
    const phone = await passwordLogin('owner', OWNER_PASSWORD, 'Mozilla/5.0 (iPhone) Test');
    expect(phone.status).toBe(200);
    const me = await fetch(`${host.base}/api/v1/me`, { headers: { cookie: phone.cookie! } }).then((r) => r.json());
    expect(me.account).toMatchObject({ userId: 'owner', owner: true });
    // Once set, changing it needs the current one.
    expect(await codeOf(owner.request('account.password.set', { password: 'another-password-1' }))).toBe(
      'AALIS_WEBUI_PASSWORD_WRONG',
    );

    expect(await codeOf(owner.request('admin.accounts.update', { userId: 'alice', displayName: 'Al' }))).toBe(
      'AALIS_WEBUI_ACCOUNT_DECLARED',
    );
    expect(await codeOf(owner.request('admin.accounts.update', { userId: 'owner', level: 3 }))).toBe(
      'AALIS_WEBUI_ACCOUNT_DECLARED',
    );
    expect(await codeOf(owner.request('admin.accounts.update', { userId: 'ghost', level: 3 }))).toBe(
      'AALIS_WEBUI_ACCOUNT_UNKNOWN',
    );
    const { account } = await owner.request('admin.accounts.update', {
      userId: 'alice',
      level: 1,
      password: ALICE_PASSWORD,
    });
    expect(account).toMatchObject({ userId: 'alice', source: 'config', level: 1, hasPassword: true });
    expect((await passwordLogin('alice', ALICE_PASSWORD)).status).toBe(200);
    const bobEdit = await owner.request('admin.accounts.update', { userId: 'bob', displayName: 'Robert', level: 3 });
    expect(bobEdit.account).toMatchObject({ displayName: 'Robert', level: 3, hasPassword: true });
  });

  it('deletes a page account (its logins end, its sockets close); a YAML account cannot be deleted', async () => {
    const owner = await connected();
    const bob = await clientOf((await passwordLogin('bob', BOB_NEW_PASSWORD)).cookie!);
    const states: string[] = [];
    bob.on('state', (state) => states.push(state));
    expect(await codeOf(owner.request('admin.accounts.delete', { userId: 'alice' }))).toBe(
      'AALIS_WEBUI_ACCOUNT_DECLARED',
    );
    expect(await codeOf(owner.request('admin.accounts.delete', { userId: 'ghost' }))).toBe(
      'AALIS_WEBUI_ACCOUNT_UNKNOWN',
    );
    expect(await owner.request('admin.accounts.delete', { userId: 'bob' })).toEqual({ deleted: true });
    await waitFor(() => states.includes('logged-out'));
    expect((await passwordLogin('bob', BOB_NEW_PASSWORD)).code).toBe('AALIS_WEBUI_LOGIN_FAILED');
    const listed = (await owner.request('admin.accounts.list', {})).accounts.map((account) => account.userId);
    expect(listed).toEqual(['owner', 'alice', 'linkonly']);
  });
});

describe('usage report', () => {
  it('sums the calls by day, model, account and platform with the cost from the model prices', async () => {
    const owner = await connected();
    const { session } = await owner.request('session.create', {});
    host.model.enqueue(
      textReply('counted', { usage: { promptTokens: 1000, completionTokens: 500, cachedTokens: 400 } }),
    );
    const recorder = new Recorder();
    await owner.subscribe(session.id, recorder.handlers).ready;
    await owner.send({ sessionId: session.id, text: 'count this' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const report = async (groupBy: 'day' | 'model' | 'account' | 'session' | 'platform') => {
      let result = await owner.request('admin.usage', { groupBy });
      await waitFor(async () => {
        result = await owner.request('admin.usage', { groupBy });
        return result.total.calls > 0;
      });
      return result;
    };
    const byModel = await report('model');
    expect(byModel.days).toBe(30);
    expect(byModel.daily).toHaveLength(30);
    expect(byModel.rows).toEqual([
      {
        key: 'openai/test-model',
        calls: 1,
        promptTokens: 1000,
        completionTokens: 500,
        cachedPromptTokens: 400,
        cost: expect.closeTo(1000 * 1000e-6 + 500 * 2000e-6, 6),
        unpriced: 0,
        currency: 'USD',
      },
    ]);
    expect(byModel.daily.at(-1)).toMatchObject({ calls: 1, promptTokens: 1000 });
    expect((await report('account')).rows.map((row) => row.key)).toEqual(['webui:owner']);
    expect((await report('platform')).rows.map((row) => row.key)).toEqual(['webui']);
    expect((await report('session')).rows.map((row) => row.key)).toEqual([session.id]);
    expect((await report('day')).rows).toHaveLength(1);
    for (const params of [{ groupBy: 'week' }, { groupBy: 'day', days: 91 }, { groupBy: 'day', days: 0 }, {}]) {
      expect(await codeOf(owner.request('admin.usage', params as never))).toBe('AALIS_WEBUI_BAD_REQUEST');
    }
  });
});

describe('logs', () => {
  it('queries kept records by level, plugin, session and turn; the live stream follows the same filter', async () => {
    const owner = await connected();
    const { session } = await owner.request('session.create', {});
    const live: LogView[] = [];
    owner.on('log', (record) => live.push(record));
    await owner.request('logs.subscribe', { level: 'info', sessionId: session.id });
    host.model.enqueue(textReply('logged'));
    const recorder = new Recorder();
    await owner.subscribe(session.id, recorder.handlers).ready;
    await owner.send({ sessionId: session.id, text: 'log this' });
    await recorder.until(() => recorder.of('turn.ended').length === 1);
    const turnId = recorder.of('turn.ended')[0]!.turnId;

    const all = await owner.request('logs.query', { level: 'info' });
    expect(all.records.length).toBeGreaterThan(0);
    expect(all.records.some((record) => record.message === 'WebUI account created')).toBe(true);
    const warnings = await owner.request('logs.query', { level: 'warn' });
    expect(warnings.records.every((record) => record.level === 'warn' || record.level === 'error')).toBe(true);
    const serverOnly = await owner.request('logs.query', { plugin: '@aalis/plugin-session-server' });
    expect(serverOnly.records.length).toBeGreaterThan(0);
    expect(serverOnly.records.every((record) => record.name.startsWith('@aalis/plugin-session-server'))).toBe(true);
    const sessionOnly = await owner.request('logs.query', { sessionId: session.id });
    expect(sessionOnly.records.length).toBeGreaterThan(0);
    const mentions = (record: LogView, id: string) =>
      record.fields?.sessionId === id || record.fields?.turnId === id || record.message.includes(id);
    expect(sessionOnly.records.every((record) => mentions(record, session.id))).toBe(true);
    const turnOnly = await owner.request('logs.query', { turnId });
    expect(turnOnly.records.every((record) => mentions(record, turnId))).toBe(true);
    const limited = await owner.request('logs.query', { limit: 1 });
    expect(limited.records).toHaveLength(1);
    expect(limited.truncated).toBe(true);
    const future = await owner.request('logs.query', { from: Date.now() + 60_000 });
    expect(future.records).toEqual([]);
    expect(live.every((record) => mentions(record, session.id))).toBe(true);
    for (const params of [{ level: 'loud' }, { limit: 0 }, { from: -1 }, { plugin: 7 }]) {
      expect(await codeOf(owner.request('logs.query', params as never))).toBe('AALIS_WEBUI_BAD_REQUEST');
    }
  });
});

describe('login limits and secrecy', () => {
  it('holds an account back after five failed logins, with a coded error saying when to retry', async () => {
    const owner = await connected();
    await owner.request('admin.accounts.create', { userId: 'carol', password: 'carol-secret-123' });
    // A success clears the counts of the account and of this address (earlier tests failed from it too).
    expect((await passwordLogin('carol', 'carol-secret-123')).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await passwordLogin('carol', `wrong-${attempt}-guess`)).code).toBe('AALIS_WEBUI_LOGIN_FAILED');
    }
    const held = await passwordLogin('carol', 'carol-secret-123');
    expect(held.status).toBe(429);
    expect(held.code).toBe('AALIS_WEBUI_LOGIN_THROTTLED');
    expect(Number(held.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(held.body).error.message).toMatch(/Try again in \d+ seconds/);
  });

  it('writes no password and no hash into any response or the log', () => {
    const log = readFileSync(join(host.dir, 'data', 'logs', 'aalis.log'), 'utf8');
    expect(log).toContain('WebUI account created');
    const everything = `${log}\n${bodies.join('\n')}`;
    for (const secret of [BOB_PASSWORD, BOB_NEW_PASSWORD, OWNER_PASSWORD, ALICE_PASSWORD, 'carol-secret-123']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toContain('$argon2id$');
    expect(everything).not.toMatch(/passwordHash|password_hash/);
  });
});
