// Conformance suite of the tools service. An implementation's test calls
//   describeToolsConformance('plugin-tools', () => fixture)
// where the fixture starts a real App with the implementation (and what it needs) plus the suite's probe plugins.
import { type AuthorityService, authority, type Caller, NOBODY, originTurnOf } from '@aalis/api-authority';
import { type AnyPluginDefinition, type App, definePlugin, events, provide, type ServiceHandle } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool, ToolCallContext } from './tool.js';
import type { ToolExecuteEvent } from './tool-execute-event.js';
import { type ToolsService, tools } from './tools-service.js';

export interface ToolsFixture {
  /** Builds and starts an App with the implementation, what it requires, and `extras`. */
  start(extras: readonly AnyPluginDefinition[]): Promise<App>;
  /** Stops the App and releases everything. */
  stop(): Promise<void>;
}

const alice: Identity = { platform: 'test', userId: 'alice' };
const owner: Identity = { platform: 'test', userId: 'root' };

/** A fake authority: 'root' is the owner, 'alice' has level 1, everyone else 0. */
function fakeAuthority(): AuthorityService {
  const callerOf = (identity: Identity | undefined): Caller => {
    if (!identity) return NOBODY;
    if (identity.userId === 'root') return { identity, isOwner: true, level: 0 };
    return { identity, isOwner: false, level: identity.userId === 'alice' ? 1 : 0 };
  };
  return {
    isOwner: (identity) => identity?.userId === 'root',
    levelOf: (identity) => callerOf(identity).level,
    callerOf,
    setLevel: async () => {},
    levels: () => [],
    owners: () => [owner],
    originTurnOf: (inputs) => originTurnOf({ inputs, isOwner: (identity) => identity.userId === 'root' }),
  };
}

function context(overrides: Partial<ToolCallContext> = {}): ToolCallContext {
  return {
    sessionId: 's1',
    platform: 'test',
    participants: [alice],
    inbound: { source: undefined, fromTurn: undefined, messageId: 'm1' },
    signal: new AbortController().signal,
    turnId: 't1',
    callId: `c${Math.random().toString(36).slice(2)}`,
    acceptsImages: false,
    ...overrides,
  };
}

const echo = (overrides: Partial<Tool> = {}): Tool => ({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 }, times: { type: 'integer', minimum: 1, maximum: 3 } },
    required: ['text'],
    additionalProperties: false,
  },
  handler: async (args) => String(args.text).repeat(Number(args.times ?? 1)),
  ...overrides,
});

export function describeToolsConformance(
  name: string,
  createFixture: () => ToolsFixture | Promise<ToolsFixture>,
): void {
  describe(`tools conformance: ${name}`, () => {
    let fixture: ToolsFixture;
    let app: App;
    let service: ServiceHandle<ToolsService>;
    let seen: ToolExecuteEvent[];
    let registerProbe: (tool: Tool) => void;

    beforeEach(async () => {
      fixture = await createFixture();
      seen = [];
      const observer = definePlugin({
        name: 'tools-observer',
        uses: { tools, events, provide },
        apply(handles) {
          service = handles.tools;
          handles.events.use.on('tool:execute', (event) => {
            seen.push(event);
          });
          handles.provide.use.service(authority, fakeAuthority());
        },
      });
      const owner = definePlugin({
        name: 'tools-owner',
        uses: { tools },
        apply(handles) {
          registerProbe = (tool) => {
            handles.tools.use.register(tool);
          };
        },
      });
      app = await fixture.start([observer, owner]);
      expect(app.stateOf('tools-observer').state).toBe('active');
    });

    afterEach(async () => {
      await fixture.stop();
    });

    it('lists a registered tool and withdraws it when its plugin deactivates', async () => {
      registerProbe(echo());
      expect(service.use.list().map((tool) => [tool.name, tool.plugin])).toEqual([['echo', 'tools-owner']]);
      expect((await service.use.definitions({ groups: '*' })).map((tool) => tool.name)).toEqual(['echo']);
      await app.remove('tools-owner');
      expect(service.use.list()).toEqual([]);
      const result = await service.use.execute({ name: 'echo', arguments: '{"text":"a"}', context: context() });
      expect(result).toMatchObject({ isError: true, code: 'AALIS_TOOLS_UNKNOWN' });
    });

    it('rejects invalid names and a name held by another plugin', () => {
      expect(() => registerProbe(echo({ name: 'bad name!' }))).toThrow(
        expect.objectContaining({ code: 'AALIS_TOOLS_NAME_INVALID' }),
      );
      expect(() => registerProbe(echo({ name: 'x'.repeat(65) }))).toThrow(
        expect.objectContaining({ code: 'AALIS_TOOLS_NAME_INVALID' }),
      );
      expect(() => registerProbe(echo({ parameters: { type: 'string' } as unknown as Tool['parameters'] }))).toThrow(
        expect.objectContaining({ code: 'AALIS_TOOLS_DEFINITION_INVALID' }),
      );
      registerProbe(echo());
      expect(() => service.use.register(echo())).toThrow(expect.objectContaining({ code: 'AALIS_TOOLS_DUPLICATE' }));
    });

    it('offers ungrouped tools always and grouped ones only when their group is enabled', async () => {
      registerProbe(echo({ name: 'plain' }));
      registerProbe(echo({ name: 'fs_read', group: 'files' }));
      registerProbe(echo({ name: 'web_get', group: 'web' }));
      const names = async (groups: '*' | string[]) =>
        (await service.use.definitions({ groups })).map((tool) => tool.name);
      expect(await names('*')).toEqual(['fs_read', 'plain', 'web_get']);
      expect(await names([])).toEqual(['plain']);
      expect(await names(['web'])).toEqual(['plain', 'web_get']);
      expect(service.use.groups()).toEqual(['files', 'web']);
      const definition = (await service.use.definitions({ groups: [] }))[0]!;
      expect(Object.keys(definition).sort()).toEqual(['description', 'name', 'parameters']);
    });

    it('runs a valid call and emits a start/end pair with the same callId', async () => {
      registerProbe(echo());
      const ctx = context();
      const result = await service.use.execute({ name: 'echo', arguments: '{"text":"ab","times":2}', context: ctx });
      expect(result).toEqual({ content: 'abab' });
      expect(seen.map((event) => event.phase)).toEqual(['start', 'end']);
      const [start, end] = seen;
      expect(start).toMatchObject({ name: 'echo', callId: ctx.callId, turnId: 't1', sessionId: 's1' });
      expect(end).toMatchObject({ phase: 'end', callId: ctx.callId, result: { content: 'abab' } });
      expect(end?.phase === 'end' && end.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('returns schema violations as one error result and never calls the handler', async () => {
      let calls = 0;
      registerProbe(
        echo({
          handler: async () => {
            calls++;
            return 'ran';
          },
        }),
      );
      const result = await service.use.execute({
        name: 'echo',
        arguments: { text: '', times: 7, extra: true },
        context: context(),
      });
      expect(calls).toBe(0);
      expect(result.isError).toBe(true);
      expect(result.code).toBe('AALIS_TOOLS_ARGUMENTS_INVALID');
      expect(result.content).toContain('$.text');
      expect(result.content).toContain('$.times');
      expect(result.content).toContain('$.extra');
      const missing = await service.use.execute({ name: 'echo', arguments: '{}', context: context() });
      expect(missing).toMatchObject({ isError: true, code: 'AALIS_TOOLS_ARGUMENTS_INVALID' });
      expect(missing.content).toContain('text');
      expect(seen.filter((event) => event.phase === 'end')).toHaveLength(2);
    });

    it('refuses arguments that are not a JSON object, quoting them', async () => {
      registerProbe(echo({ parameters: { type: 'object', properties: {} } }));
      for (const raw of ['{"text": ', 'null', '[1]', '"x"']) {
        const result = await service.use.execute({ name: 'echo', arguments: raw, context: context() });
        expect(result).toMatchObject({ isError: true, code: 'AALIS_TOOLS_ARGUMENTS_NOT_JSON' });
        expect(result.content).toContain(raw);
      }
      const empty = await service.use.execute({ name: 'echo', arguments: '', context: context() });
      expect(empty.isError).toBeFalsy();
    });

    it('reports an unknown tool as an error result with a start/end pair', async () => {
      const result = await service.use.execute({ name: 'nope', arguments: '{}', context: context() });
      expect(result).toMatchObject({ isError: true, code: 'AALIS_TOOLS_UNKNOWN' });
      expect(result.content).toContain('nope');
      expect(seen.map((event) => [event.phase, event.name])).toEqual([
        ['start', 'nope'],
        ['end', 'nope'],
      ]);
    });

    it('turns a handler throw into an error result carrying the reason', async () => {
      registerProbe(
        echo({
          handler: async () => {
            throw new Error('disk on fire');
          },
        }),
      );
      const result = await service.use.execute({ name: 'echo', arguments: '{"text":"a"}', context: context() });
      expect(result.isError).toBe(true);
      expect(result.content).toContain('disk on fire');
      const end = seen.find((event) => event.phase === 'end');
      expect(end?.phase === 'end' && end.result.isError).toBe(true);
    });

    it('serialises non-string handler results', async () => {
      registerProbe(echo({ name: 'obj', handler: async () => ({ a: 1 }) }));
      registerProbe(echo({ name: 'nothing', handler: async () => undefined }));
      registerProbe(echo({ name: 'result', handler: async () => ({ content: 'x', metadata: { k: 1 } }) }));
      const run = (name: string) => service.use.execute({ name, arguments: '{"text":"a"}', context: context() });
      expect(await run('obj')).toEqual({ content: '{"a":1}' });
      expect(await run('nothing')).toEqual({ content: '' });
      expect(await run('result')).toEqual({ content: 'x', metadata: { k: 1 } });
    });

    it('refuses a call when a participant is below the tool level', async () => {
      let calls = 0;
      const handler = async () => {
        calls++;
        return 'ok';
      };
      registerProbe(echo({ name: 'level1', level: 1, handler }));
      registerProbe(echo({ name: 'owner_only', level: 'owner', handler }));
      const call = (name: string, participants: Identity[]) =>
        service.use.execute({ name, arguments: '{"text":"a"}', context: context({ participants }) });
      expect(await call('level1', [alice])).toEqual({ content: 'ok' });
      expect(await call('level1', [owner])).toEqual({ content: 'ok' });
      const denied = await call('level1', [alice, { platform: 'test', userId: 'bob' }]);
      expect(denied).toMatchObject({ isError: true, code: 'AALIS_TOOLS_LEVEL_DENIED' });
      expect(denied.content).toContain('bob');
      expect(await call('level1', [])).toMatchObject({ isError: true, code: 'AALIS_TOOLS_LEVEL_DENIED' });
      expect(await call('owner_only', [alice])).toMatchObject({ isError: true, code: 'AALIS_TOOLS_LEVEL_DENIED' });
      expect(await call('owner_only', [owner])).toEqual({ content: 'ok' });
      expect(calls).toBe(3);
    });

    it('does not run a tool when the turn is already aborted', async () => {
      let calls = 0;
      registerProbe(echo({ handler: async () => `${++calls}` }));
      const controller = new AbortController();
      controller.abort();
      const result = await service.use.execute({
        name: 'echo',
        arguments: '{"text":"a"}',
        context: context({ signal: controller.signal }),
      });
      expect(result).toMatchObject({ isError: true, code: 'AALIS_TOOLS_ABORTED' });
      expect(calls).toBe(0);
    });

    it('passes the call context to the handler', async () => {
      let received: ToolCallContext | undefined;
      registerProbe(
        echo({
          handler: async (_args, ctx) => {
            received = ctx;
            return '';
          },
        }),
      );
      const ctx = context({ acceptsImages: true });
      await service.use.execute({ name: 'echo', arguments: '{"text":"a"}', context: ctx });
      expect(received).toMatchObject({ sessionId: 's1', turnId: 't1', callId: ctx.callId, acceptsImages: true });
      expect(received?.signal).toBe(ctx.signal);
    });
  });
}
