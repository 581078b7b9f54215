// @aalis/plugin-mute: 禁言. `/mute [duration]` and `/unmute` (owners and room admins: `level`), and mute keywords
// said to her: the running turn stops and what waits is released, as agent.abort with `queued` and no `by`
// (plugin-agent.zh.md 「停下」: 禁言…连同排队与待插入的一起放掉); while the mute lasts every person's message is
// passed on as ambient room context (she reads, no turn opens) and no turn's output goes out.
import { agent } from '@aalis/api-agent';
import { authorisedIdentityOf, authority } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { hooks } from '@aalis/api-hooks';
import '@aalis/api-gateway';
import { openStore, storage } from '@aalis/api-storage';
import { config, definePlugin, i18n, lifecycle, logger, optional, s, textRef } from '@aalis/core';
import { wasAddressed } from '@aalis/schema-message';
import { type MuteStore, postgresMuteStore, sqliteMuteStore } from './mute-store.js';
import { muteErrors } from './mute-texts.js';
import { Mutes } from './mutes.js';
import { parseDuration } from './parse-duration.js';

export const MUTE_PLUGIN = '@aalis/plugin-mute';

export const muteConfigSchema = s
  .object({
    level: s
      .number()
      .integer()
      .min(0)
      .default(1)
      .describe(
        'Authority level needed for /mute and /unmute (owners always may; room admins are given this level with /level).',
      ),
    keywords: s
      .array(s.string())
      .default(['闭嘴', 'shut up'])
      .describe(
        'Said in a message that addresses her (a mention, her name, a reply to her), any of these mutes her like /mute (case-insensitive substring). [] turns keywords off.',
      ),
    keywordLevel: s
      .number()
      .integer()
      .min(0)
      .default(0)
      .describe('Authority level a sender needs for a mute keyword to count (0 = anyone in the room).'),
    keywordMinutes: s.number().min(1).default(10).describe('How long a mute keyword mutes her, in minutes.'),
    cacheMs: s
      .number()
      .integer()
      .min(0)
      .default(1000)
      .describe(
        'How long a process trusts its copy of a session’s mute state before asking the database again (changes made here, and on PostgreSQL by any process, apply at once).',
      ),
  })
  .describe('禁言 (mute): /mute, /unmute and mute keywords; mutes persist and are shared across processes.');

export default definePlugin({
  name: MUTE_PLUGIN,
  uses: {
    config,
    hooks,
    storage,
    i18n,
    logger,
    lifecycle,
    agent: optional(agent),
    commands: optional(commands),
    authority: optional(authority),
  },
  config: muteConfigSchema,
  async apply(handles) {
    const settings = handles.config.use;
    const log = handles.logger.use;
    const store: MuteStore = await openStore(handles.storage.use, {
      sqlite: sqliteMuteStore,
      postgres: postgresMuteStore,
    });
    const mutes = new Mutes({ store, signals: handles.storage.use.handOver(), cacheMs: settings.cacheMs });
    handles.lifecycle.use.onDispose(() => mutes.close());
    const keywords = settings.keywords.map((word) => word.trim().toLowerCase()).filter((word) => word !== '');

    const formatUntil = (until: number) =>
      new Intl.DateTimeFormat(handles.i18n.use.locale, { dateStyle: 'short', timeStyle: 'short' }).format(until);

    /** Mutes the session and stops what runs there (no `by`: the spec gives a mute's stop no person). */
    const mute = async (sessionId: string, durationMs: number | undefined, by: string | undefined) => {
      const now = Date.now();
      const until = durationMs === undefined ? undefined : now + durationMs;
      await mutes.mute({ sessionId, until, by, createdAt: now });
      log.info(`muted session=${sessionId}${until === undefined ? '' : ` until=${new Date(until).toISOString()}`}`);
      if (handles.agent.available) handles.agent.use.abort(sessionId, { queued: true, reason: 'mute' });
      return until;
    };

    if (handles.commands.available) {
      handles.commands.use.register({
        name: 'mute',
        description: textRef('mute.command.mute'),
        usage: textRef('mute.command.mute.usage'),
        level: settings.level,
        async handler(context) {
          const text = context.args.join('');
          let durationMs: number | undefined;
          if (text !== '') {
            durationMs = parseDuration(text);
            if (durationMs === undefined) throw muteErrors.AALIS_MUTE_DURATION_INVALID({ text });
          }
          const who = context.caller.identity;
          const until = await mute(context.sessionId, durationMs, who ? `${who.platform}:${who.userId}` : undefined);
          return until === undefined
            ? textRef('mute.muted.forever')
            : textRef('mute.muted.until', { until: formatUntil(until) });
        },
      });
      handles.commands.use.register({
        name: 'unmute',
        description: textRef('mute.command.unmute'),
        level: settings.level,
        async handler(context) {
          const lifted = await mutes.unmute(context.sessionId);
          if (lifted) log.info(`unmuted session=${context.sessionId}`);
          return textRef(lifted ? 'mute.unmuted' : 'mute.notMuted');
        },
      });
    }

    handles.hooks.use.middleware('inbound:flow', async (context, next) => {
      const { message } = context;
      if (message.source === undefined && message.hostNotice === undefined && keywords.length > 0) {
        const text = message.content.toLowerCase();
        if (keywords.some((word) => text.includes(word))) {
          await context.judgeTrigger();
          const identity = authorisedIdentityOf(message);
          const level = handles.authority.available ? handles.authority.use.callerOf(identity) : undefined;
          const allowed = level === undefined || level.isOwner || level.level >= settings.keywordLevel;
          if (wasAddressed(message) && allowed) {
            await mute(
              message.sessionId,
              settings.keywordMinutes * 60_000,
              identity ? `${identity.platform}:${identity.userId}` : undefined,
            );
          }
        }
      }
      if (message.source === undefined && (await mutes.current(message.sessionId))) {
        // She reads: the input goes on as room context (archived, no turn of its own).
        if (message.triggerType !== 'ambient')
          log.debug(`muted: #${message.arrival} session=${message.sessionId} kept as context`);
        message.triggerType = 'ambient';
      }
      await next();
    });

    // A turn that was not stopped in time (an injection's, or one in another process) does not speak while muted;
    // replies to commands (no turn id) still go out, so /unmute is answered.
    handles.hooks.use.middleware('outbound:dispatch', async (context, next) => {
      const { message } = context;
      if (message.turnId !== undefined && (await mutes.current(message.sessionId))) {
        log.info(`muted: a reply of turn ${message.turnId} in session=${message.sessionId} was not sent`);
        return;
      }
      await next();
    });
  },
});
