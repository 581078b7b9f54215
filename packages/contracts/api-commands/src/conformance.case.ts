// Conformance suite of the commands service: every implementation runs it (see plugin-commands' test).

import { AalisError, type Locale, textRef, translate } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { commandErrors } from './command-errors.js';
import type { CommandContext, CommandsService } from './commands-service.js';

export interface CommandsFixture {
  service: CommandsService;
  /** The locale replies are rendered in. */
  locale: Locale;
  close(): Promise<void>;
}

/** The implementation must resolve callers with an authority that knows these owners and levels. */
export type CreateCommandsFixture = (options: {
  owners: Identity[];
  levels: { identity: Identity; level: number }[];
}) => Promise<CommandsFixture>;

const owner: Identity = { platform: 'qq', userId: 'owner' };
const trusted: Identity = { platform: 'qq', userId: 'trusted' };
const stranger: Identity = { platform: 'qq', userId: 'stranger' };

function message(content: string, from: Identity = stranger): IncomingMessage {
  return { sessionId: 'session-1', platform: from.platform, sender: { userId: from.userId }, content };
}

export function describeCommandsConformance(name: string, createFixture: CreateCommandsFixture): void {
  describe(`commands conformance: ${name}`, () => {
    let fixture: CommandsFixture | undefined;
    const setup = async () => {
      fixture = await createFixture({ owners: [owner], levels: [{ identity: trusted, level: 2 }] });
      return fixture;
    };
    afterEach(async () => {
      await fixture?.close();
      fixture = undefined;
    });

    it('runs a registered command with parsed arguments, flags, raw text and the caller', async () => {
      const { service } = await setup();
      let seen: CommandContext | undefined;
      service.register({
        name: 'echo',
        description: 'echo',
        handler(context) {
          seen = context;
          return `echo:${context.args.join('|')}`;
        },
      });
      const result = await service.execute(message('/echo "a b" c -p 2 --all', trusted));
      expect(result).toEqual({ handled: true, reply: 'echo:a b|c' });
      expect(seen).toMatchObject({
        sessionId: 'session-1',
        platform: 'qq',
        args: ['a b', 'c'],
        flags: { p: '2', all: true },
        raw: '"a b" c -p 2 --all',
        caller: { identity: trusted, isOwner: false, level: 2 },
      });
    });

    it('does not handle text that is not a command', async () => {
      const { service } = await setup();
      expect(await service.execute(message('hello /echo'))).toEqual({ handled: false });
      expect(service.isCommand('/echo x')).toBe(true);
      expect(service.isCommand('// comment')).toBe(false);
    });

    it('answers an unknown command with a coded message suggesting /help', async () => {
      const { service, locale } = await setup();
      const result = await service.execute(message('/nope'));
      expect(result.handled).toBe(true);
      expect(result.reply).toContain('AALIS_COMMAND_UNKNOWN');
      expect(result.reply).toContain(commandErrors.AALIS_COMMAND_UNKNOWN({ name: 'nope' }).localized(locale));
      expect(result.reply).toContain('/help');
    });

    it('refuses a caller below the required level and admits those at or above it, and owners', async () => {
      const { service } = await setup();
      service.register({ name: 'admin', description: 'admin', level: 2, handler: () => 'ran' });
      service.register({ name: 'root', description: 'root', level: 'owner', handler: () => 'ran' });
      const refused = await service.execute(message('/admin', stranger));
      expect(refused.reply).toContain('AALIS_COMMAND_FORBIDDEN');
      expect((await service.execute(message('/admin', trusted))).reply).toBe('ran');
      expect((await service.execute(message('/root', trusted))).reply).toContain('AALIS_COMMAND_FORBIDDEN');
      expect((await service.execute(message('/root', owner))).reply).toBe('ran');
    });

    it('turns a malformed command into a coded parse error reply', async () => {
      const { service } = await setup();
      let ran = false;
      service.register({
        name: 'say',
        description: 'say',
        handler: () => {
          ran = true;
        },
      });
      const result = await service.execute(message('/say "unterminated'));
      expect(result.handled).toBe(true);
      expect(result.reply).toContain('AALIS_COMMAND_PARSE');
      expect(ran).toBe(false);
      expect(() => service.parse('/say "open')).toThrow(AalisError);
    });

    it('turns handler failures into coded replies and never throws', async () => {
      const { service, locale } = await setup();
      service.register({
        name: 'coded',
        description: 'x',
        handler: () => {
          throw commandErrors.AALIS_COMMAND_PAGE_INVALID({ page: 'x' });
        },
      });
      service.register({
        name: 'broken',
        description: 'x',
        handler: async () => {
          throw new Error('boom');
        },
      });
      const coded = await service.execute(message('/coded'));
      expect(coded.reply).toContain(commandErrors.AALIS_COMMAND_PAGE_INVALID({ page: 'x' }).localized(locale));
      const broken = await service.execute(message('/broken'));
      expect(broken.reply).toContain('AALIS_COMMAND_FAILED');
      expect(broken.reply).toContain('boom');
    });

    it('translates TextRef replies and sends no reply for void', async () => {
      const { service, locale } = await setup();
      service.register({
        name: 'ref',
        description: 'x',
        handler: () => textRef('commands.pageFooter', { page: 1, pages: 2, total: 3 }),
      });
      service.register({ name: 'quiet', description: 'x', handler: () => {} });
      expect((await service.execute(message('/ref'))).reply).toBe(
        translate(textRef('commands.pageFooter', { page: 1, pages: 2, total: 3 }), locale),
      );
      expect(await service.execute(message('/quiet'))).toEqual({ handled: true });
    });

    it('lists only the commands a caller may run, by name', async () => {
      const { service } = await setup();
      service.register({ name: 'zeta', description: 'z', handler: () => 'z' });
      service.register({ name: 'alpha', description: 'a', usage: '<x>', level: 2, handler: () => 'a' });
      const strangerNames = service.list({ identity: stranger, isOwner: false, level: 0 }).map((info) => info.name);
      expect(strangerNames).toContain('zeta');
      expect(strangerNames).not.toContain('alpha');
      const trustedList = service.list({ identity: trusted, isOwner: false, level: 2 });
      const alpha = trustedList.find((info) => info.name === 'alpha');
      expect(alpha).toMatchObject({ usage: '<x>', level: 2 });
      const names = trustedList.map((info) => info.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    });

    it('unregisters a command with its disposer and rejects duplicate or invalid names', async () => {
      const { service } = await setup();
      const dispose = service.register({ name: 'once', description: 'x', handler: () => 'x' });
      expect(() => service.register({ name: 'once', description: 'x', handler: () => 'y' })).toThrow(
        expect.objectContaining({ code: 'AALIS_COMMAND_DUPLICATE' }),
      );
      expect(() => service.register({ name: 'bad name', description: 'x', handler: () => 'y' })).toThrow(
        expect.objectContaining({ code: 'AALIS_COMMAND_INVALID_NAME' }),
      );
      dispose();
      expect((await service.execute(message('/once'))).reply).toContain('AALIS_COMMAND_UNKNOWN');
    });
  });
}
