import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuthorityService, authority } from '@aalis/api-authority';
import { type MemoryService, memory as memoryDescriptor } from '@aalis/api-memory';
import { type MessageArchiveService, messageArchive } from '@aalis/api-message-archive';
import { describeMessageArchiveConformance, type MessageArchiveFixture } from '@aalis/api-message-archive/conformance';
import { type SessionInfo, type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, memorySink, provide } from '@aalis/core';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import storagePlugin from '@aalis/plugin-storage';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import archivePlugin from './index.js';

interface BootOptions {
  dataDir: string;
  config?: unknown;
  sessions?: Record<string, Pick<SessionInfo, 'kind' | 'platform' | 'originChat'>>;
  owners?: Identity[];
}

const fakeSessionManager = (sessions: NonNullable<BootOptions['sessions']>) =>
  definePlugin({
    name: 'fake-session-manager',
    provides: [sessionManager],
    uses: { provide },
    apply({ provide }) {
      const service: Partial<SessionManagerService> = {
        get: async (id) =>
          sessions[id] ? ({ id, createdAt: 0, updatedAt: 0, ...sessions[id] } as SessionInfo) : undefined,
      };
      provide.use.service(sessionManager, service as SessionManagerService);
    },
  });

const fakeAuthority = (owners: Identity[]) =>
  definePlugin({
    name: 'fake-authority',
    provides: [authority],
    uses: { provide },
    apply({ provide }) {
      const service: Partial<AuthorityService> = {
        isOwner: (identity) => owners.some((o) => o.platform === identity?.platform && o.userId === identity?.userId),
        owners: () => owners,
      };
      provide.use.service(authority, service as AuthorityService);
    },
  });

async function boot({ dataDir, config, sessions, owners }: BootOptions) {
  const app = new App({ logSinks: [memorySink()] });
  app.plugin(storagePlugin, { dataDir });
  app.plugin(memoryPlugin);
  if (sessions) app.plugin(fakeSessionManager(sessions));
  if (owners) app.plugin(fakeAuthority(owners));
  app.plugin(archivePlugin, config);
  await app.start();
  const archive = app.registry.select(messageArchive.name)?.impl as MessageArchiveService | undefined;
  const memory = app.registry.select(memoryDescriptor.name)?.impl as MemoryService | undefined;
  return { app, archive, memory };
}

async function createFixture(dataDir = mkdtempSync(join(tmpdir(), 'aalis-archive-'))): Promise<MessageArchiveFixture> {
  const { app, archive, memory } = await boot({ dataDir });
  if (!archive || !memory) throw new Error(`archive did not start: ${JSON.stringify(app.states())}`);
  return {
    archive,
    history: (sessionId) => memory.readAll(sessionId),
    async restart() {
      await app.stop();
      return createFixture(dataDir);
    },
    async dispose() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeMessageArchiveConformance('plugin-message-archive', () => createFixture());

describe('plugin-message-archive with session manager and authority', () => {
  const dirs: string[] = [];
  const apps: App[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const start = async (options: Omit<BootOptions, 'dataDir'>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aalis-archive-'));
    dirs.push(dataDir);
    const booted = await boot({ dataDir, ...options });
    apps.push(booted.app);
    return booted;
  };
  const TIME = Date.UTC(2026, 10, 29, 21, 5);
  const ownerOnWeb: Identity = { platform: 'webui', userId: 'owner' };
  const ownerOnQq: Identity = { platform: 'qq', userId: '9000' };
  const sessions = {
    group: { kind: 'room' as const, platform: 'qq', originChat: { multiParty: true } },
    mine: { kind: 'web' as const, platform: 'webui', originChat: { multiParty: false } },
  };
  const input = (overrides: Partial<IncomingMessage>): IncomingMessage => ({
    sessionId: 'group',
    platform: 'qq',
    sender: {},
    content: 'hi',
    timestamp: TIME,
    ...overrides,
  });

  it("rule: the owner acting in a room from another platform is named by his registered account on the room's platform", async () => {
    const { archive } = await start({ sessions, owners: [ownerOnWeb, ownerOnQq] });
    const stored = await archive!.archiveIncoming(
      input({ platform: 'webui', actor: ownerOnWeb, sender: { userId: 'owner' } }),
      { turnId: 't1' },
    );
    expect(stored.content).toBe('[2026-11-29 21:05] 9000: hi');
  });

  it('rule: the owner in his own session gets no prefix', async () => {
    const { archive } = await start({ sessions, owners: [ownerOnWeb, ownerOnQq] });
    const message = input({ sessionId: 'mine', platform: 'webui', actor: ownerOnWeb, sender: { displayName: 'Boss' } });
    expect(await archive!.speakerOf(message)).toBeUndefined();
    expect((await archive!.archiveIncoming(message, { turnId: 't1' })).content).toBe('[2026-11-29 21:05] hi');
  });

  it('rule: everyone else in a room is named by account with display name', async () => {
    const { archive } = await start({ sessions, owners: [ownerOnWeb] });
    const message = input({ sender: { userId: '10001', displayName: 'Alice' } });
    expect(await archive!.speakerOf(message)).toBe('Alice (10001)');
  });

  it('without session manager and authority: every session is private and nobody is the owner', async () => {
    const { archive } = await start({});
    const message = input({ sessionId: 'mine', platform: 'webui', actor: ownerOnWeb });
    expect(await archive!.speakerOf(message)).toBe('owner');
  });

  it('a session the session manager does not know counts as private', async () => {
    const { archive } = await start({ sessions: {}, owners: [ownerOnWeb] });
    expect(
      await archive!.speakerOf(input({ sessionId: 'unknown', platform: 'webui', actor: ownerOnWeb })),
    ).toBeUndefined();
  });

  it('annotates the time in the configured time zone', async () => {
    const { archive } = await start({ config: { timeZone: 'Asia/Shanghai' } });
    const stored = await archive!.archiveIncoming(input({ sender: { userId: '1' } }), { turnId: 't' });
    expect(stored.content).toBe('[2026-11-30 05:05] 1: hi');
  });

  it('an unknown time zone leaves the plugin in error with a coded error', async () => {
    const { app, archive } = await start({ config: { timeZone: 'Nowhere/Land' } });
    expect(archive).toBeUndefined();
    const state = app.states().find((entry) => entry.name === '@aalis/plugin-message-archive');
    expect(state?.state).toBe('error');
    expect(state?.error?.code).toBe('AALIS_ARCHIVE_TIME_ZONE_INVALID');
  });

  it('refuses a bad entry or turn id with a coded error and writes nothing', async () => {
    const { archive, memory } = await start({});
    await expect(
      archive!.archiveIncoming(input({}), { turnId: 't', entry: 'sideways' as never }),
    ).rejects.toMatchObject({ code: 'AALIS_ARCHIVE_INPUT_INVALID' });
    await expect(archive!.archiveIncoming(input({}), { turnId: '' })).rejects.toMatchObject({
      code: 'AALIS_ARCHIVE_INPUT_INVALID',
    });
    expect(await memory!.readAll('group')).toEqual([]);
  });
});

describe('plugin-message-archive records notices sent outside a turn', () => {
  it('stores a notice with its catalogue text as an event marker; command answers and turn notices are not stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aalis-archive-'));
    const { app, memory } = await boot({ dataDir });
    try {
      const text = { key: 'budget.over', params: { scope: { key: 'budget.scope.person' }, used: 3, limit: 2 } };
      const sent = [
        { sessionId: 'g', platform: 'onebot', kind: 'system' as const, content: '额度用完了', text, replyTo: 'm1' },
        // A command's answer (no catalogue text): its command entry keeps it.
        { sessionId: 'g', platform: 'onebot', kind: 'system' as const, content: '/help …', replyTo: 'm2' },
        // A turn's notice: its turn record keeps the reason.
        { sessionId: 'g', platform: 'onebot', kind: 'error' as const, content: '[错误] x', text, turnId: 't1' },
        { sessionId: 'g', platform: 'onebot', kind: 'reply' as const, content: 'hi', text, turnId: 't1' },
      ];
      for (const message of sent) await app.events.emitAsync('outbound:message', message);
      const history = await memory!.readAll('g');
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({
        role: 'system',
        kind: 'event-marker',
        content: '额度用完了',
        metadata: { platform: 'onebot', notice: { kind: 'system', text } },
      });
      // Never part of what a model is sent or counted.
      expect(await memory!.countHistory('g')).toBe(0);
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('plugin-message-archive records failed deliveries', () => {
  it('stores a turn reply that a platform could not deliver as a system record with the turn id', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aalis-archive-'));
    const { app, memory } = await boot({ dataDir });
    try {
      await app.events.emitAsync('outbound:failed', {
        message: { sessionId: 'g', platform: 'onebot', kind: 'reply', content: 'hello', turnId: 't7' },
        platform: 'onebot',
        code: 'AALIS_ONEBOT_API_FAILED',
        reason: 'status failed, retcode 1200',
      });
      // A command's answer is not part of a turn: not recorded.
      await app.events.emitAsync('outbound:failed', {
        message: { sessionId: 'g', platform: 'onebot', kind: 'system', content: 'help' },
        platform: 'onebot',
        code: 'AALIS_ONEBOT_API_FAILED',
        reason: 'x',
      });
      const history = await memory!.readAll('g');
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({
        role: 'system',
        content: '[投递失败] 上面那条回复没有送到 onebot：status failed, retcode 1200',
        metadata: {
          turnId: 't7',
          deliveryFailure: {
            platform: 'onebot',
            code: 'AALIS_ONEBOT_API_FAILED',
            reason: 'status failed, retcode 1200',
            // Its catalogue text, so a reader in another language is shown the note in theirs.
            text: {
              key: 'gateway.deliveryFailed',
              params: { platform: 'onebot', reason: 'status failed, retcode 1200' },
            },
          },
        },
      });
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
