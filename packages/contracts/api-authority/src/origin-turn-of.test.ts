// originTurnOf: one test per rule of 「工具调用上下文」 and the /stop participant rule in 「指令」.
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { originTurnOf } from './origin-turn-of.js';

const owners: Identity[] = [
  { platform: 'webui', userId: 'owner' },
  { platform: 'qq', userId: 'owner-qq' },
];
const isOwner = (identity: Identity) =>
  owners.some((owner) => owner.platform === identity.platform && owner.userId === identity.userId);

function input(overrides: Partial<IncomingMessage> = {}): IncomingMessage {
  return { sessionId: 'room', platform: 'qq', content: 'hi', sender: {}, ...overrides };
}

describe('originTurnOf', () => {
  it('a real person is a participant through the sender account when there is no actor', () => {
    const origin = originTurnOf({ inputs: [input({ sender: { userId: 'alice' } })], isOwner });
    expect(origin.participants).toEqual([{ platform: 'qq', userId: 'alice' }]);
    expect(origin.authorised).toEqual([{ platform: 'qq', userId: 'alice' }]);
  });

  it('a real person with an actor is authorised (and a participant) as the actor', () => {
    const actor = { platform: 'webui', userId: 'owner' };
    const origin = originTurnOf({ inputs: [input({ sender: { userId: 'relay-bot' }, actor })], isOwner });
    expect(origin.participants).toEqual([actor]);
    expect(origin.authorised).toEqual([actor]);
  });

  it('a sender without an account counts as nobody', () => {
    const origin = originTurnOf({ inputs: [input({ sender: { displayName: 'guest' } })], isOwner });
    expect(origin.participants).toEqual([]);
    expect(origin.authorised).toEqual([undefined]);
    expect(origin.userId).toBeUndefined();
  });

  it('a continuation takes the participants and userId of the originating turn', () => {
    const fromTurn = {
      turnId: 't0',
      sessionId: 'room',
      platform: 'qq',
      participants: [
        { platform: 'qq', userId: 'alice' },
        { platform: 'qq', userId: 'bob' },
      ],
      userId: 'alice',
    };
    const origin = originTurnOf({
      inputs: [input({ source: 'background-task', sender: { userId: 'system' }, fromTurn })],
      isOwner,
    });
    expect(origin.participants).toEqual(fromTurn.participants);
    expect(origin.userId).toBe('alice');
    expect(origin.inbound).toEqual({ source: 'background-task', fromTurn, messageId: undefined });
  });

  it('a continuation without a source still takes the originating turn', () => {
    const fromTurn = { sessionId: 'room', participants: [{ platform: 'qq', userId: 'bob' }], userId: 'bob' };
    const origin = originTurnOf({ inputs: [input({ sender: { userId: 'relay' }, fromTurn })], isOwner });
    expect(origin.participants).toEqual([{ platform: 'qq', userId: 'bob' }]);
    expect(origin.userId).toBe('bob');
  });

  it('a scheduled or orchestrated injection is the authorised identity (actor) only', () => {
    const actor = { platform: 'qq', userId: 'alice' };
    const withActor = originTurnOf({
      inputs: [input({ source: 'scheduler', triggerType: 'scheduled', sender: { userId: 'cron' }, actor })],
      isOwner,
    });
    expect(withActor.participants).toEqual([actor]);
    expect(withActor.authorised).toEqual([actor]);
    const withoutActor = originTurnOf({
      inputs: [input({ source: 'workflow', triggerType: 'proactive', sender: { userId: 'flow' } })],
      isOwner,
    });
    expect(withoutActor.participants).toEqual([]);
    expect(withoutActor.authorised).toEqual([undefined]);
  });

  it("the owner's identities are merged into one participant, the first to arrive", () => {
    const origin = originTurnOf({
      inputs: [
        input({ sender: { userId: 'owner-qq' } }),
        input({ sender: { userId: 'alice' } }),
        input({ platform: 'webui', sender: { userId: 'owner' } }),
      ],
      isOwner,
    });
    expect(origin.participants).toEqual([
      { platform: 'qq', userId: 'owner-qq' },
      { platform: 'qq', userId: 'alice' },
    ]);
    expect(origin.authorised[2]).toEqual({ platform: 'webui', userId: 'owner' });
  });

  it('without the authority service identities are literal: no owner merging', () => {
    const origin = originTurnOf({
      inputs: [input({ sender: { userId: 'owner-qq' } }), input({ platform: 'webui', sender: { userId: 'owner' } })],
    });
    expect(origin.participants).toEqual([
      { platform: 'qq', userId: 'owner-qq' },
      { platform: 'webui', userId: 'owner' },
    ]);
  });

  it('the same account speaking twice is one participant', () => {
    const origin = originTurnOf({
      inputs: [input({ sender: { userId: 'alice' } }), input({ sender: { userId: 'alice' } })],
    });
    expect(origin.participants).toEqual([{ platform: 'qq', userId: 'alice' }]);
  });

  it('userId is set only when every input has the same physical speaker', () => {
    const same = originTurnOf({
      inputs: [input({ sender: { userId: 'alice' } }), input({ sender: { userId: 'alice' } })],
      isOwner,
    });
    expect(same.userId).toBe('alice');
    const different = originTurnOf({
      inputs: [input({ sender: { userId: 'alice' } }), input({ sender: { userId: 'bob' } })],
      isOwner,
    });
    expect(different.userId).toBeUndefined();
    const oneUnknown = originTurnOf({
      inputs: [input({ sender: { userId: 'alice' } }), input({ sender: {} })],
      isOwner,
    });
    expect(oneUnknown.userId).toBeUndefined();
  });

  it('userId follows the physical speaker, not the actor', () => {
    const origin = originTurnOf({
      inputs: [input({ sender: { userId: 'relay' }, actor: { platform: 'webui', userId: 'owner' } })],
      isOwner,
    });
    expect(origin.userId).toBe('relay');
  });

  it("messageId is the latest input's platform message id", () => {
    const origin = originTurnOf({
      inputs: [
        input({ sender: { userId: 'a' }, messageId: 'm1' }),
        input({ sender: { userId: 'b' }, messageId: 'm2' }),
      ],
      isOwner,
    });
    expect(origin.inbound.messageId).toBe('m2');
    const latestWithout = originTurnOf({
      inputs: [input({ sender: { userId: 'a' }, messageId: 'm1' }), input({ sender: { userId: 'b' } })],
      isOwner,
    });
    expect(latestWithout.inbound.messageId).toBeUndefined();
  });

  it('a real-person turn has no source and no fromTurn', () => {
    const origin = originTurnOf({ inputs: [input({ sender: { userId: 'a' }, messageId: 'm1' })], isOwner });
    expect(origin.inbound).toEqual({ source: undefined, fromTurn: undefined, messageId: 'm1' });
  });

  it("the platform is the opening input's platform", () => {
    const origin = originTurnOf({
      inputs: [input({ platform: 'webui', sender: { userId: 'owner' } }), input({ sender: { userId: 'alice' } })],
      isOwner,
    });
    expect(origin.platform).toBe('webui');
  });

  it('a turn without inputs is a programming error', () => {
    expect(() => originTurnOf({ inputs: [], isOwner })).toThrow(/at least one input/);
  });
});
