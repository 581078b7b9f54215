// The request rules of the Satori adapter without a server: which requests are asked, taken or refused at once, which
// are left alone, and which approve call settles each kind. The wire (events, the approve calls, a restart between
// question and answer) is covered through the Satori test server in the runtime's room-flow-platforms.test.ts.
import type { ToolCallContext } from '@aalis/api-tools';
import { type Logger, translate } from '@aalis/core';
import { memoryPendingRequests } from '@aalis/platform-room';
import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { type SatoriRequestRules, SatoriRequests } from './satori-requests.js';

const quiet: Logger = {
  name: 'test',
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  enabled: () => false,
  child: () => quiet,
};
const LOGIN = { platform: 'onebot', userId: '10000' };

function setup(rules: Partial<SatoriRequestRules> = {}) {
  const store = memoryPendingRequests();
  const delivered: IncomingMessage[] = [];
  const calls: { method: string; body: Record<string, unknown>; login: unknown }[] = [];
  const requests = new SatoriRequests({
    platform: 'satori',
    owners: () => [{ platform: 'satori', userId: 'onebot:42' }],
    ownerSession: async (userId) => `satori:private:onebot:dm-${userId.slice('onebot:'.length)}`,
    deliver: async (notice) => {
      delivered.push(notice);
    },
    store: async () => store,
    rules: { friend: 'ask', guildInvite: 'ask', guildMember: 'ignore', allow: [], ...rules },
    call: async (method, body, login) => {
      calls.push({ method, body, login });
      return undefined;
    },
    t: (text) => translate(text, 'en'),
    logger: quiet,
  });
  return { store, delivered, calls, requests };
}

const context: ToolCallContext = {
  sessionId: 'satori:private:onebot:dm-42',
  platform: 'satori',
  userId: 'onebot:42',
  participants: [{ platform: 'satori', userId: 'onebot:42' }],
  inbound: { source: undefined, fromTurn: undefined, messageId: undefined },
  signal: new AbortController().signal,
  turnId: 't1',
  callId: 'c1',
  acceptsImages: false,
};

describe('SatoriRequests', () => {
  it('asks the owner in her direct channel and settles a guild invitation with guild.approve', async () => {
    const { store, delivered, calls, requests } = setup();
    const handled = await requests.handle(
      {
        type: 'guild-request',
        guild: { id: '777', name: 'Strangers' },
        user: { id: '99', name: 'Ada' },
        message: { id: 'flag-1', content: 'join us &lt;3' },
      },
      LOGIN,
    );
    expect(handled).toBe(true);
    expect(calls).toEqual([]);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ sessionId: 'satori:private:onebot:dm-42', venue: 'onebot:dm-42' });
    expect(delivered[0]!.content).toContain(
      'invites her into the group "Strangers" (group 777) on onebot: invited by Ada',
    );
    expect(delivered[0]!.hostNotice?.untrusted).toContain('join us <3');
    const id = /request id (r[0-9a-f]+)/.exec(delivered[0]!.content)?.[1];
    expect(id).toBeDefined();
    expect(await requests.tool().handler({ id: id!, approve: true }, context)).toBe(`Request ${id}: accepted.`);
    expect(calls).toEqual([{ method: 'guild.approve', body: { message_id: 'flag-1', approve: true }, login: LOGIN }]);
    expect(await store.list('satori')).toEqual([]);
    // Settled once: the same id again is unknown.
    expect(await requests.tool().handler({ id: id!, approve: true }, context)).toContain('No request');
  });

  it('takes an owner’s and an allow-listed request at once, refuses by policy, leaves join requests alone', async () => {
    const { delivered, calls, requests } = setup({ friend: 'refuse', allow: ['onebot:7'] });
    await requests.handle({ type: 'friend-request', user: { id: '42' }, message: { id: 'a' } }, LOGIN);
    await requests.handle({ type: 'friend-request', user: { id: '7' }, message: { id: 'b' } }, LOGIN);
    await requests.handle({ type: 'friend-request', user: { id: '8' }, message: { id: 'c' } }, LOGIN);
    await requests.handle(
      { type: 'guild-member-request', guild: { id: '1' }, user: { id: '9' }, message: { id: 'd' } },
      LOGIN,
    );
    expect(calls.map(({ method, body }) => ({ method, ...body }))).toEqual([
      { method: 'friend.approve', message_id: 'a', approve: true },
      { method: 'friend.approve', message_id: 'b', approve: true },
      { method: 'friend.approve', message_id: 'c', approve: false },
    ]);
    expect(delivered).toEqual([]);
  });

  it('asks about a join request when told to, settling it with guild.member.approve', async () => {
    const { delivered, calls, requests } = setup({ guildMember: 'ask' });
    await requests.handle(
      {
        type: 'guild-member-request',
        guild: { id: '1', name: 'Ours' },
        user: { id: '9', name: 'Bo' },
        member: { nick: 'Bo in Ours' },
        message: { id: 'e' },
      },
      LOGIN,
    );
    const id = /request id (r[0-9a-f]+)/.exec(delivered[0]?.content ?? '')?.[1];
    expect(delivered[0]?.content).toContain(
      'asks to join the group "Ours" (group 1) she administers on onebot: Bo in Ours',
    );
    expect(await requests.tool().handler({ id: id!, approve: false }, context)).toBe(`Request ${id}: refused.`);
    expect(calls).toEqual([
      { method: 'guild.member.approve', body: { message_id: 'e', approve: false }, login: LOGIN },
    ]);
  });

  it('says a request event without its id, requester or group is not one (the caller logs it as malformed)', async () => {
    const { delivered, calls, requests } = setup({ friend: 'accept' });
    expect(await requests.handle({ type: 'friend-request', user: { id: '8' } }, LOGIN)).toBe(false);
    expect(await requests.handle({ type: 'friend-request', message: { id: 'x' } }, LOGIN)).toBe(false);
    expect(await requests.handle({ type: 'guild-request', user: { id: '8' }, message: { id: 'x' } }, LOGIN)).toBe(
      false,
    );
    expect(SatoriRequests.handles('message-created')).toBe(false);
    expect(SatoriRequests.handles('guild-member-request')).toBe(true);
    expect([...calls, ...delivered]).toEqual([]);
  });
});
