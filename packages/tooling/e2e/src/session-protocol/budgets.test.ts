// Conformance: the budget requests (admin.budgets.get / admin.budgets.set / session.budget). What a turn spends is
// shown per room, per person and for the deployment; the owner adjusts a kind's limit (audited, and the next model
// call is checked against it); bad input and a non-owner change nothing; a session's own budgets are shown to whoever
// may see it, and to no one else.
import { type SessionClient, SessionClientError } from '@aalis/session-client';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, Recorder } from './harness.case.js';

const { host, track, connected } = hostPerFile({
  extraConfig: `  budget:
    personPerDay: 5000
    roomPerDay: 100000
    deploymentPerMonth: 1000000
`,
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof SessionClientError ? error.code : String(error);
  }
}

async function alice(): Promise<SessionClient> {
  const client = track(clientFor(host, await loginCookie(host, 'alice')));
  await client.connect();
  return client;
}

/** One turn in the session: the scripted model answers `reply` with the given usage. */
async function turn(
  client: SessionClient,
  sessionId: string,
  usage: { promptTokens: number; completionTokens: number },
) {
  const recorder = new Recorder();
  const subscription = client.subscribe(sessionId, recorder.handlers);
  await subscription.ready;
  host.model.enqueue(textReply('noted', { usage }));
  await client.send({ sessionId, text: 'hello there' });
  await recorder.until(() => recorder.of('turn.ended').length === 1);
  await subscription.unsubscribe();
  return recorder;
}

describe('budgets', () => {
  it('shows what a turn spent per room, person and deployment, and the session its own budgets', async () => {
    const owner = await connected();
    const before = await owner.request('admin.budgets.get', {});
    expect(before.enabled).toBe(true);
    expect(before.overview).toMatchObject({
      unit: 'tokens',
      limits: [
        { kind: 'person', limit: 5000, configured: 5000, adjusted: false },
        { kind: 'room', limit: 100000, configured: 100000, adjusted: false },
        { kind: 'deployment', limit: 1000000, configured: 1000000, adjusted: false },
      ],
    });
    const { session } = await owner.request('session.create', { title: 'Budget room' });
    await owner.request('sessions.rename', { sessionId: session.id, title: 'Budget room' });
    await turn(owner, session.id, { promptTokens: 300, completionTokens: 45 });
    const after = (await owner.request('admin.budgets.get', {})).overview!;
    expect(after.deployment.used - before.overview!.deployment.used).toBe(345);
    expect(after.rooms).toContainEqual({ id: session.id, used: 345, title: 'Budget room' });
    expect(after.people.find((person) => person.id === 'webui:owner')?.used).toBeGreaterThanOrEqual(345);

    const own = await owner.request('session.budget', { sessionId: session.id });
    expect(own.enabled).toBe(true);
    expect(own.unit).toBe('tokens');
    expect(own.lines.map((line) => [line.kind, line.limit])).toEqual([
      ['deployment', 1000000],
      ['room', 100000],
      ['person', 5000],
    ]);
    expect(own.lines.find((line) => line.kind === 'room')?.used).toBe(345);
    expect(own.lines.find((line) => line.kind === 'person')?.period).toBe(after.day);
    expect(own.lines.find((line) => line.kind === 'deployment')?.period).toBe(after.month);
  });

  it('adjusts a kind’s limit (audited), which the next model call obeys, and goes back to the configured one', async () => {
    const owner = await connected();
    const set = await owner.request('admin.budgets.set', { kind: 'room', limit: 50 });
    expect(set.limit).toEqual({ kind: 'room', limit: 50, configured: 100000, adjusted: true });
    expect(set.overview.limits.find((limit) => limit.kind === 'room')?.limit).toBe(50);
    const { entries } = await owner.request('admin.audit.list', {});
    expect(entries[0]).toMatchObject({
      actor: { platform: 'webui', userId: 'owner' },
      action: 'budgets.set',
      key: 'budget.room',
      old: null,
      new: 50,
    });

    // A non-owner's turn in a room over its adjusted limit: no model call, a notice instead (owners are exempt).
    const other = await alice();
    const { session } = await other.request('session.create', {});
    await turn(other, session.id, { promptTokens: 40, completionTokens: 20 });
    const calls = host.model.requests.length;
    const recorder = new Recorder();
    await other.subscribe(session.id, recorder.handlers).ready;
    await other.send({ sessionId: session.id, text: 'and again' });
    await recorder.until(() =>
      recorder.events.some(({ event }) => JSON.stringify(event).includes("This chat's daily budget is used up")),
    );
    expect(host.model.requests.length).toBe(calls);

    const back = await owner.request('admin.budgets.set', { kind: 'room', limit: null });
    expect(back.limit).toEqual({ kind: 'room', limit: 100000, configured: 100000, adjusted: false });
    expect((await owner.request('admin.audit.list', {})).entries[0]).toMatchObject({
      action: 'budgets.set',
      key: 'budget.room',
      old: 50,
      new: null,
    });
  });

  it('refuses bad input with a coded error naming the parameter, and changes nothing', async () => {
    const owner = await connected();
    const before = (await owner.request('admin.budgets.get', {})).overview;
    const bad: unknown[] = [
      { kind: 'planet', limit: 10 },
      { kind: 'room', limit: -1 },
      { kind: 'room', limit: '100' },
      { kind: 'room', limit: 1e13 },
      { kind: 'room' },
      { limit: 10 },
    ];
    for (const params of bad) {
      expect(await codeOf(owner.request('admin.budgets.set', params as never))).toBe('AALIS_WEBUI_BAD_REQUEST');
    }
    expect(await codeOf(owner.request('admin.budgets.get', { top: 0 }))).toBe('AALIS_WEBUI_BAD_REQUEST');
    expect(await codeOf(owner.request('session.budget', { sessionId: '' }))).toBe('AALIS_WEBUI_BAD_REQUEST');
    expect(await codeOf(owner.request('session.budget', { sessionId: 'webui:nobody:1' }))).toBe(
      'AALIS_WEBUI_SESSION_UNKNOWN',
    );
    try {
      await owner.request('admin.budgets.set', { kind: 'room', limit: -1 });
    } catch (error) {
      expect((error as SessionClientError).message).toContain('limit');
      expect((error as SessionClientError).message).toContain('0 = no limit');
    }
    expect((await owner.request('admin.budgets.get', {})).overview?.limits).toEqual(before?.limits);
  });

  it('refuses a non-owner the overview and every change, and shows another’s session budget to no one else', async () => {
    const owner = await connected();
    const other = await alice();
    const before = (await owner.request('admin.budgets.get', {})).overview?.limits;
    const audit = (await owner.request('admin.audit.list', {})).entries.length;
    expect(await codeOf(other.request('admin.budgets.get', {}))).toBe('AALIS_WEBUI_FORBIDDEN');
    expect(await codeOf(other.request('admin.budgets.set', { kind: 'person', limit: 0 }))).toBe(
      'AALIS_WEBUI_FORBIDDEN',
    );
    expect((await owner.request('admin.budgets.get', {})).overview?.limits).toEqual(before);
    expect((await owner.request('admin.audit.list', {})).entries.length).toBe(audit);

    const { session: ownersSession } = await owner.request('session.create', {});
    expect(await codeOf(other.request('session.budget', { sessionId: ownersSession.id }))).toBe(
      'AALIS_WEBUI_FORBIDDEN',
    );
    const { session } = await other.request('session.create', {});
    const mine = await other.request('session.budget', { sessionId: session.id });
    expect(mine.lines.map((line) => line.kind)).toEqual(['deployment', 'room', 'person']);
  });
});
