// Conformance suite of the session manager. An implementation's test calls
//   describeSessionManagerConformance('plugin-session-manager', () => fixture)
// The fixture starts a real App with the implementation and its storage; start() after stop() must open the same
// data (restart). The suite adds its own fakes of the agent, memory and hooks services through provide.
import { type AgentService, agent } from '@aalis/api-agent';
import { type HookContextMap, type HookKey, type HooksService, hooks, type Middleware } from '@aalis/api-hooks';
import { type MemoryService, memory } from '@aalis/api-memory';
import {
  type AnyPluginDefinition,
  type App,
  definePlugin,
  type EventMap,
  events,
  provide,
  type ServiceHandle,
} from '@aalis/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionInit } from './session-info.js';
import { type SessionManagerService, sessionManager } from './session-manager-service.js';

export interface SessionManagerFixture {
  /** Builds and starts an App with the implementation, what it requires and `extras`; again after stop() = restart. */
  start(extras: readonly AnyPluginDefinition[]): Promise<App>;
  /** Stops the App (a second call does nothing); the data stays for the next start(). */
  stop(): Promise<void>;
  /** Removes the data (after the last stop). */
  dispose(): Promise<void>;
}

/** A minimal onion-middleware hooks service, enough to run agent:turn:after. */
function fakeHooks(): HooksService {
  const chains = new Map<string, Middleware<unknown>[]>();
  return {
    middleware(key, middleware) {
      const chain = chains.get(key) ?? [];
      chain.push(middleware as Middleware<unknown>);
      chains.set(key, chain);
      return () => chain.splice(chain.indexOf(middleware as Middleware<unknown>), 1);
    },
    async run<K extends HookKey>(key: K, context: HookContextMap[K], centre?: (c: HookContextMap[K]) => unknown) {
      const chain = [...(chains.get(key) ?? [])];
      let reachedCentre = false;
      const dispatch = async (index: number): Promise<void> => {
        const middleware = chain[index];
        if (!middleware) {
          reachedCentre = true;
          await centre?.(context);
          return;
        }
        await middleware(context, () => dispatch(index + 1));
      };
      await dispatch(0);
      return { reachedCentre };
    },
    count: (key) => chains.get(key)?.length ?? 0,
  };
}

interface Probe {
  service: ServiceHandle<SessionManagerService>;
  log: string[];
  hooks: HooksService;
}

const room = (id: string, extra: Partial<SessionInit> = {}): SessionInit => ({
  id,
  kind: 'room',
  platform: 'qq',
  venue: `g-${id}`,
  originChat: { multiParty: true },
  ...extra,
});
const child = (id: string, parentId: string): SessionInit => ({ id, kind: 'child', platform: 'subtask', parentId });

export function describeSessionManagerConformance(
  name: string,
  createFixture: () => SessionManagerFixture | Promise<SessionManagerFixture>,
): void {
  describe(`session manager conformance: ${name}`, () => {
    let fixture: SessionManagerFixture;
    let app: App;
    let probe: Probe;
    /** What the fake agent and memory do, set per test. */
    let fakes: { agent?: Partial<AgentService>; memory?: Partial<MemoryService> };

    const probePlugins = (): AnyPluginDefinition[] => {
      const log: string[] = [];
      const hooksService = fakeHooks();
      const extras: AnyPluginDefinition[] = [
        definePlugin({
          name: 'session-fakes',
          uses: { provide },
          apply({ provide }) {
            provide.use.service(hooks, hooksService);
            if (fakes.agent) provide.use.service(agent, fakes.agent as AgentService as never);
            if (fakes.memory) provide.use.service(memory, fakes.memory as MemoryService);
          },
        }),
        definePlugin({
          name: 'session-probe',
          uses: { sessionManager, events },
          apply(handles) {
            probe = { service: handles.sessionManager, log, hooks: hooksService };
            const names: (keyof EventMap & string)[] = ['session:created', 'session:updated', 'session:deleted'];
            for (const event of names) {
              handles.events.use.on(event, (payload) => {
                const record = payload as { session?: { id: string }; sessionId?: string };
                log.push(`${event} ${record.sessionId ?? record.session?.id}`);
              });
            }
          },
        }),
      ];
      return extras;
    };

    const boot = async () => {
      app = await fixture.start(probePlugins());
      expect(app.stateOf('session-probe').state).toBe('active');
      return probe.service.use;
    };

    beforeEach(async () => {
      fixture = await createFixture();
      fakes = {};
    });

    afterEach(async () => {
      await fixture.stop();
      await fixture.dispose();
    });

    it('creates a session once and returns it unchanged afterwards', async () => {
      const service = await boot();
      const created = await service.ensure(room('r1', { title: 'Room' }));
      expect(created).toMatchObject({ id: 'r1', kind: 'room', platform: 'qq', venue: 'g-r1', title: 'Room' });
      expect(created.originPlatform).toBe('qq');
      expect(created.originChat).toEqual({ multiParty: true });
      expect(created.createdAt).toBeTypeOf('number');
      const again = await service.ensure(room('r1', { title: 'Other' }));
      expect(again).toEqual(created);
      expect(await service.get('r1')).toEqual(created);
      expect(await service.get('missing')).toBeUndefined();
      expect(probe.log).toEqual(['session:created r1']);
    });

    it('refuses bad input with coded errors and writes nothing', async () => {
      const service = await boot();
      const attempts: [unknown, string][] = [
        [{ id: '', kind: 'room', platform: 'qq' }, 'AALIS_SESSION_INVALID'],
        [{ id: 'x', kind: 'party', platform: 'qq' }, 'AALIS_SESSION_INVALID'],
        [{ id: 'x', kind: 'room', platform: '' }, 'AALIS_SESSION_INVALID'],
        [{ id: 'x', kind: 'room', platform: 'qq', originChat: { multiParty: 'yes' } }, 'AALIS_SESSION_INVALID'],
        [{ id: 'x', kind: 'child', platform: 'qq' }, 'AALIS_SESSION_PARENT_MISMATCH'],
        [{ id: 'x', kind: 'room', platform: 'qq', parentId: 'p' }, 'AALIS_SESSION_PARENT_MISMATCH'],
        [{ id: 'x', kind: 'child', platform: 'qq', parentId: 'nobody' }, 'AALIS_SESSION_PARENT_UNKNOWN'],
      ];
      for (const [init, code] of attempts) {
        await expect(service.ensure(init as SessionInit)).rejects.toMatchObject({ code });
      }
      await service.ensure(room('r1'));
      await expect(service.ensure({ ...room('r1'), kind: 'direct' })).rejects.toMatchObject({
        code: 'AALIS_SESSION_CONFLICT',
      });
      await expect(service.update('r1', { title: 5 } as never)).rejects.toMatchObject({
        code: 'AALIS_SESSION_INVALID',
      });
      await expect(service.update('r1', { kind: 'web' } as never)).rejects.toMatchObject({
        code: 'AALIS_SESSION_INVALID',
      });
      await expect(service.update('nope', { title: 't' })).rejects.toMatchObject({ code: 'AALIS_SESSION_UNKNOWN' });
      expect((await service.list()).map((session) => session.id)).toEqual(['r1']);
      expect(await service.get('r1')).not.toHaveProperty('title');
      expect(probe.log).toEqual(['session:created r1']);
    });

    it('links children to parents and roots, inheriting the origin platform', async () => {
      const service = await boot();
      await service.ensure(room('r1'));
      await service.ensure(child('c1', 'r1'));
      await service.ensure(child('c2', 'r1'));
      const grandchild = await service.ensure(child('g1', 'c1'));
      expect(grandchild.originPlatform).toBe('qq');
      expect((await service.children('r1')).map((session) => session.id)).toEqual(['c1', 'c2']);
      expect((await service.children('c2')).map((session) => session.id)).toEqual([]);
      expect((await service.rootOf('g1'))?.id).toBe('r1');
      expect((await service.rootOf('r1'))?.id).toBe('r1');
      expect(await service.rootOf('nope')).toBeUndefined();
      const roots = await service.list({ parentId: null });
      expect(roots.map((session) => session.id)).toEqual(['r1']);
      expect((await service.list({ kind: 'child' })).map((session) => session.id).sort()).toEqual(['c1', 'c2', 'g1']);
      expect((await service.list({ platform: 'qq', venue: 'g-r1' })).map((session) => session.id)).toEqual(['r1']);
      expect(await service.list({ limit: 2 })).toHaveLength(2);
    });

    it('updates fields, reporting what changed', async () => {
      const service = await boot();
      await service.ensure(room('r1', { title: 'Old' }));
      const updated = await service.update('r1', { title: 'New', originChat: { multiParty: false } });
      expect(updated).toMatchObject({ title: 'New', originChat: { multiParty: false } });
      const cleared = await service.update('r1', { title: null });
      expect(cleared).not.toHaveProperty('title');
      await service.update('r1', { originChat: { multiParty: false } });
      expect(probe.log).toEqual(['session:created r1', 'session:updated r1', 'session:updated r1']);
      expect(await service.get('r1')).toEqual(cleared);
    });

    it('pins and archives a session, and unpins and unarchives it with null; kept across a restart', async () => {
      let service = await boot();
      await service.ensure(room('r1', { title: 'Keep' }));
      const pinned = await service.update('r1', { pinnedAt: 1000, archivedAt: 2000 });
      expect(pinned).toMatchObject({ pinnedAt: 1000, archivedAt: 2000, title: 'Keep' });
      await expect(service.update('r1', { pinnedAt: -1 })).rejects.toMatchObject({ code: 'AALIS_SESSION_INVALID' });
      await expect(service.update('r1', { archivedAt: 'x' } as never)).rejects.toMatchObject({
        code: 'AALIS_SESSION_INVALID',
      });
      await fixture.stop();
      service = await boot();
      expect(await service.get('r1')).toMatchObject({ pinnedAt: 1000, archivedAt: 2000 });
      const unpinned = await service.update('r1', { pinnedAt: null, archivedAt: null });
      expect(unpinned).not.toHaveProperty('pinnedAt');
      expect(unpinned).not.toHaveProperty('archivedAt');
      expect(await service.get('r1')).toEqual(unpinned);
    });

    it('records the last turn from agent:turn:after and directly', async () => {
      const service = await boot();
      await service.ensure(room('r1'));
      await probe.hooks.run('agent:turn:after', {
        inputs: [],
        reply: undefined,
        outcome: 'error',
        error: 'model unreachable',
        sessionId: 'r1',
        turnId: 't1',
      });
      expect((await service.get('r1'))?.lastTurn).toMatchObject({
        turnId: 't1',
        outcome: 'error',
        error: 'model unreachable',
      });
      await service.recordTurn('r1', { turnId: 't2', outcome: 'replied', at: 5 });
      expect((await service.get('r1'))?.lastTurn).toEqual({ turnId: 't2', outcome: 'replied', at: 5 });
      await service.recordTurn('ghost', { turnId: 't3', outcome: 'replied', at: 5 });
      expect(await service.get('ghost')).toBeUndefined();
      await expect(service.recordTurn('r1', { turnId: 't4', outcome: 'great', at: 5 } as never)).rejects.toMatchObject({
        code: 'AALIS_SESSION_INVALID',
      });
    });

    it('bumps the generations of a deleted session and its descendants only', async () => {
      const service = await boot();
      await service.ensure(room('r1'));
      await service.ensure(child('c1', 'r1'));
      await service.ensure(room('r2'));
      expect(service.generationOf('r1')).toBe(0);
      await service.deleteSession('r1');
      expect(service.generationOf('r1')).toBe(1);
      expect(service.generationOf('c1')).toBe(1);
      expect(service.generationOf('r2')).toBe(0);
      await service.ensure(room('r1'));
      expect(service.generationOf('r1')).toBe(1);
    });

    it('deletes children first: session:deleted deepest first, then the memory clear, then the rows', async () => {
      const order: string[] = [];
      fakes.memory = {
        clear: async (ids) => {
          order.push(`memory.clear ${[...(ids as string[])].join(',')}`);
        },
      };
      const service = await boot();
      await service.ensure(room('r1'));
      await service.ensure(child('c1', 'r1'));
      await service.ensure(child('c2', 'r1'));
      await service.ensure(child('g1', 'c1'));
      await service.ensure(room('r2'));
      app.events.on('session:deleted', async ({ sessionId, rootId, reason }) => {
        await new Promise((resolve) => setImmediate(resolve));
        // Rows are still readable while listeners run.
        order.push(
          `deleted ${sessionId} root=${rootId} reason=${reason} exists=${(await service.get(sessionId)) !== undefined}`,
        );
      });
      const report = await service.deleteSession('r1', { reason: 'test' });
      expect(report.deleted).toEqual(['g1', 'c1', 'c2', 'r1']);
      expect(order).toEqual([
        'deleted g1 root=r1 reason=test exists=true',
        'deleted c1 root=r1 reason=test exists=true',
        'deleted c2 root=r1 reason=test exists=true',
        'deleted r1 root=r1 reason=test exists=true',
        'memory.clear g1,c1,c2,r1',
      ]);
      for (const id of ['r1', 'c1', 'c2', 'g1']) expect(await service.get(id)).toBeUndefined();
      expect((await service.list()).map((session) => session.id)).toEqual(['r2']);
      await expect(service.deleteSession('r1')).rejects.toMatchObject({ code: 'AALIS_SESSION_UNKNOWN' });
    });

    it('hands the whole deletion to AgentService.clearing when an agent is present', async () => {
      const calls: string[] = [];
      fakes.agent = {
        clearing: async (ids, clear, reason) => {
          calls.push(`clearing ${ids?.join(',')} reason=${reason}`);
          await clear();
          calls.push('clearing done');
        },
      };
      const service = await boot();
      await service.ensure(room('r1'));
      await service.ensure(child('c1', 'r1'));
      app.events.on('session:deleted', ({ sessionId }) => {
        calls.push(`deleted ${sessionId}`);
      });
      await service.deleteSession('r1', { reason: 'bye' });
      expect(calls).toEqual(['clearing c1,r1 reason=bye', 'deleted c1', 'deleted r1', 'clearing done']);
    });

    it('marks sessions as deleting, joins a second call and lets ensure wait for the deletion', async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      fakes.agent = {
        clearing: async (_ids, clear) => {
          await gate;
          await clear();
        },
      };
      const service = await boot();
      await service.ensure(room('r1'));
      await service.ensure(child('c1', 'r1'));
      const first = service.deleteSession('r1');
      expect(service.isDeleting('r1')).toBe(true);
      expect(service.isDeleting('c1')).toBe(true);
      const joined = service.deleteSession('c1');
      let recreated = false;
      const ensured = service.ensure(room('r1')).then((session) => {
        recreated = true;
        return session;
      });
      for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
      expect(recreated).toBe(false);
      release();
      expect(await joined).toEqual(await first);
      const session = await ensured;
      expect(session.id).toBe('r1');
      expect(service.isDeleting('r1')).toBe(false);
      await service.settled('r1');
      expect(probe.log.filter((entry) => entry.startsWith('session:created r1'))).toHaveLength(2);
    });

    it('keeps sessions, parents, origins and last turns across a restart', async () => {
      let service = await boot();
      await service.ensure(room('r1', { title: 'Keep' }));
      await service.ensure(child('c1', 'r1'));
      await service.recordTurn('r1', { turnId: 't1', outcome: 'silent', at: 7 });
      const before = await service.list();
      await fixture.stop();
      service = await boot();
      expect(await service.list()).toEqual(before);
      expect((await service.children('r1')).map((session) => session.id)).toEqual(['c1']);
      expect((await service.get('r1'))?.lastTurn).toEqual({ turnId: 't1', outcome: 'silent', at: 7 });
      expect((await service.get('c1'))?.originPlatform).toBe('qq');
    });
  });
}
