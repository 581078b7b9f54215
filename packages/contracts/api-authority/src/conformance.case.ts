// Conformance suite of the authority service: every implementation runs it (see plugin-authority's test).
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorityService } from './authority-service.js';

export interface AuthorityFixture {
  service: AuthorityService;
  /** Stops the implementation and starts a new one on the same stored data; returns the new service. */
  restart(): Promise<AuthorityService>;
  close(): Promise<void>;
}

export type CreateAuthorityFixture = (options: { owners: Identity[] }) => Promise<AuthorityFixture>;

const ownerOnQq: Identity = { platform: 'qq', userId: 'owner-qq' };
const ownerOnWeb: Identity = { platform: 'webui', userId: 'owner' };
const alice: Identity = { platform: 'qq', userId: 'alice' };
const bob: Identity = { platform: 'qq', userId: 'bob' };
const carol: Identity = { platform: 'qq', userId: 'carol' };

function input(overrides: Partial<IncomingMessage> & { sender?: IncomingMessage['sender'] }): IncomingMessage {
  return { sessionId: 's1', platform: 'qq', content: 'hi', sender: {}, ...overrides };
}

export function describeAuthorityConformance(name: string, createFixture: CreateAuthorityFixture): void {
  describe(`authority conformance: ${name}`, () => {
    let fixture: AuthorityFixture | undefined;
    const setup = async () => {
      fixture = await createFixture({ owners: [ownerOnQq, ownerOnWeb] });
      return fixture;
    };
    afterEach(async () => {
      await fixture?.close();
      fixture = undefined;
    });
    const owner = (service: AuthorityService) => service.callerOf(ownerOnQq);

    it('recognises every configured owner account and nobody else', async () => {
      const { service } = await setup();
      expect(service.isOwner(ownerOnQq)).toBe(true);
      expect(service.isOwner(ownerOnWeb)).toBe(true);
      expect(service.isOwner({ platform: 'webui', userId: 'owner-qq' })).toBe(false);
      expect(service.isOwner(alice)).toBe(false);
      expect(service.isOwner(undefined)).toBe(false);
      expect(service.owners()).toEqual(expect.arrayContaining([ownerOnQq, ownerOnWeb]));
    });

    it('gives level 0 to anyone without a stored level, and to nobody', async () => {
      const { service } = await setup();
      expect(service.levelOf(alice)).toBe(0);
      expect(service.levelOf(undefined)).toBe(0);
      expect(service.callerOf(undefined)).toEqual({ isOwner: false, level: 0 });
    });

    it('lets an owner set levels, reported by levelOf, callerOf and levels()', async () => {
      const { service } = await setup();
      await service.setLevel({ identity: alice, level: 2, caller: owner(service) });
      await service.setLevel({ identity: bob, level: 1, caller: owner(service) });
      expect(service.levelOf(alice)).toBe(2);
      expect(service.callerOf(alice)).toEqual({ identity: alice, isOwner: false, level: 2 });
      expect(service.callerOf(ownerOnWeb)).toMatchObject({ identity: ownerOnWeb, isOwner: true });
      expect(service.levels()).toEqual([
        { identity: alice, level: 2 },
        { identity: bob, level: 1 },
      ]);
    });

    it('setting level 0 removes the stored level', async () => {
      const { service } = await setup();
      await service.setLevel({ identity: alice, level: 2, caller: owner(service) });
      await service.setLevel({ identity: alice, level: 0, caller: owner(service) });
      expect(service.levelOf(alice)).toBe(0);
      expect(service.levels()).toEqual([]);
    });

    it('lets a non-owner set only levels below their own, on targets below their own', async () => {
      const { service } = await setup();
      await service.setLevel({ identity: alice, level: 3, caller: owner(service) });
      await service.setLevel({ identity: bob, level: 2, caller: service.callerOf(alice) });
      expect(service.levelOf(bob)).toBe(2);
      await expect(
        service.setLevel({ identity: carol, level: 3, caller: service.callerOf(alice) }),
      ).rejects.toMatchObject({ code: 'AALIS_AUTHORITY_FORBIDDEN' });
      await expect(
        service.setLevel({ identity: alice, level: 2, caller: service.callerOf(bob) }),
      ).rejects.toMatchObject({ code: 'AALIS_AUTHORITY_FORBIDDEN' });
      await expect(service.setLevel({ identity: bob, level: 5, caller: service.callerOf(bob) })).rejects.toMatchObject({
        code: 'AALIS_AUTHORITY_FORBIDDEN',
      });
      await expect(
        service.setLevel({ identity: carol, level: 1, caller: service.callerOf(undefined) }),
      ).rejects.toMatchObject({ code: 'AALIS_AUTHORITY_FORBIDDEN' });
      expect(service.levels()).toEqual([
        { identity: alice, level: 3 },
        { identity: bob, level: 2 },
      ]);
    });

    it('rejects bad input with coded errors and writes nothing', async () => {
      const { service } = await setup();
      for (const level of [-1, 1.5, Number.NaN, '2' as unknown as number]) {
        await expect(service.setLevel({ identity: alice, level, caller: owner(service) })).rejects.toMatchObject({
          code: 'AALIS_AUTHORITY_INVALID_LEVEL',
        });
      }
      for (const identity of [{ platform: '', userId: 'x' }, { platform: 'qq' } as Identity]) {
        await expect(service.setLevel({ identity, level: 1, caller: owner(service) })).rejects.toMatchObject({
          code: 'AALIS_AUTHORITY_INVALID_IDENTITY',
        });
      }
      await expect(service.setLevel({ identity: ownerOnWeb, level: 1, caller: owner(service) })).rejects.toMatchObject({
        code: 'AALIS_AUTHORITY_OWNER_TARGET',
      });
      expect(service.levels()).toEqual([]);
    });

    it('keeps levels across a restart', async () => {
      const current = await setup();
      await current.service.setLevel({ identity: alice, level: 4, caller: owner(current.service) });
      const restarted = await current.restart();
      expect(restarted.levelOf(alice)).toBe(4);
      expect(restarted.isOwner(ownerOnQq)).toBe(true);
    });

    it('originTurnOf merges the owner identities into the first to arrive', async () => {
      const { service } = await setup();
      const origin = service.originTurnOf([
        input({ platform: 'webui', sender: { userId: 'owner' } }),
        input({ sender: { userId: 'alice' } }),
        input({ sender: { userId: 'owner-qq' } }),
      ]);
      expect(origin.participants).toEqual([ownerOnWeb, alice]);
      expect(origin.authorised).toEqual([ownerOnWeb, alice, ownerOnQq]);
      expect(origin.platform).toBe('webui');
    });
  });
}
