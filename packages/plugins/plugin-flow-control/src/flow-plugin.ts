// @aalis/plugin-flow-control: 冷却与限速 in the gateway's flow phase, and the global cap on concurrent model calls
// around the agent's model calls. See README.md and docs/decisions/room-flow.md.
import '@aalis/api-agent';
import { authorisedIdentityOf, authority } from '@aalis/api-authority';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { sessionFields } from '@aalis/api-session-settings';
import { config, definePlugin, events, type Infer, i18n, logger, optional, s, setBounded, textRef } from '@aalis/core';
import type { OutgoingMessage } from '@aalis/schema-message';
import { CallGate } from './call-gate.js';
import { FlowControl, type FlowRules, type HoldRule, type RoomRules } from './flow-control.js';
import { FLOW_FIELD, flowFields, roomRulesFor } from './flow-fields.js';
import { flowErrors } from './flow-texts.js';
import { isClock } from './quiet-hours.js';

export const FLOW_CONTROL_PLUGIN = '@aalis/plugin-flow-control';

/** How long a room's rules read from its settings layers are used before they are read again. */
const RULES_TTL_MS = 30_000;

const bucket = (what: string) =>
  s
    .object({
      perMinute: s
        .number()
        .min(0)
        .default(0)
        .describe(`Inputs addressing her ${what} may send per minute (the bucket's refill); 0 = no limit.`),
      burst: s
        .number()
        .integer()
        .min(0)
        .default(0)
        .describe('How many may come at once (the bucket size); 0 = perMinute.'),
    })
    .describe(`Token bucket ${what}.`);

export const flowControlConfigSchema = s
  .object({
    cooldown: s.object({
      roomSeconds: s
        .number()
        .min(0)
        .default(0)
        .describe('After an input opens or joins her turn in a room, later ones there wait this long; 0 = off.'),
      personSeconds: s.number().min(0).default(0).describe('The same per person in a room; 0 = off.'),
    }),
    rateLimit: s.object({
      person: bucket('per person (across rooms)'),
      room: bucket('per room'),
      platform: bucket('per platform'),
    }),
    maxConcurrentCalls: s
      .number()
      .integer()
      .min(0)
      .default(0)
      .describe(
        "Most model calls of the agent's turns in flight at once in this process; the rest wait in a queue served round-robin across rooms. 0 = no cap.",
      ),
    quietHours: s.object({
      from: s
        .string()
        .default('')
        .describe("Start of the daily quiet hours, 'HH:MM' local time ('' = none); she reads but is not addressed."),
      to: s.string().default('').describe("End of the quiet hours, 'HH:MM' (may be past midnight: 23:00–07:00)."),
      timeZone: s.string().default('UTC').describe('IANA time zone of the quiet hours.'),
    }),
    noticeWindowSeconds: s
      .number()
      .min(0)
      .default(60)
      .describe('At most one notice per person per room in this window says what was held back; the rest only log.'),
    notices: s.boolean().default(true).describe('Whether held-back inputs get that short notice at all.'),
    exemptOwners: s.boolean().default(true).describe('Owners pass cooldowns, rate limits and quiet hours.'),
  })
  .describe('冷却与限速: cooldowns, rate limits, quiet hours and the cap on concurrent model calls.');

export type FlowControlConfig = Infer<typeof flowControlConfigSchema>;

const NOTICE_KEY: Record<HoldRule, 'flow.notice.quiet' | 'flow.notice.cooldown' | 'flow.notice.rate'> = {
  quiet: 'flow.notice.quiet',
  'cooldown.room': 'flow.notice.cooldown',
  'cooldown.person': 'flow.notice.cooldown',
  'rate.person': 'flow.notice.rate',
  'rate.room': 'flow.notice.rate',
  'rate.platform': 'flow.notice.rate',
};

/** The plugin with a clock of the caller's (benchmarks replay simulated time); the default export uses Date.now. */
export function createFlowControlPlugin({ now = Date.now }: { now?: () => number } = {}) {
  return definePlugin({
    name: FLOW_CONTROL_PLUGIN,
    uses: {
      config,
      hooks,
      logger,
      i18n,
      gateway: optional(gateway),
      authority: optional(authority),
      sessionFields: optional(sessionFields),
      events: optional(events),
    },
    config: flowControlConfigSchema,
    apply(handles) {
      const settings = handles.config.use;
      const log = handles.logger.use;
      for (const key of ['from', 'to'] as const) {
        const value = settings.quietHours[key];
        if (value !== '' && !isClock(value)) {
          throw flowErrors.AALIS_FLOW_QUIET_HOURS_INVALID({ key, received: value });
        }
      }
      const rules: FlowRules = {
        cooldown: settings.cooldown,
        rateLimit: settings.rateLimit,
        quietHours: settings.quietHours,
        noticeWindowSeconds: settings.noticeWindowSeconds,
      };
      const flow = new FlowControl(rules);
      // Each room's cooldowns, rate and quiet hours on the settings layers (/session, the WebUI's settings panel).
      if (handles.sessionFields.available) {
        for (const field of flowFields(flow.defaults)) handles.sessionFields.use.register(field);
      }
      // A room's rules, read from its layers at most every RULES_TTL_MS (the flow phase stays a map lookup; another
      // process's change is seen within that time), and at once after a change here.
      const roomRules = new Map<string, { rules: RoomRules; at: number }>();
      const flowKeys = new Set<string>(Object.values(FLOW_FIELD));
      if (handles.events.available) {
        handles.events.use.on('settings:changed', (change) => {
          if (flowKeys.has(change.key)) roomRules.clear();
        });
      }
      const rulesOf = async (message: { sessionId: string; platform: string; venue?: string }): Promise<RoomRules> => {
        if (!handles.sessionFields.available) return flow.defaults;
        const cached = roomRules.get(message.sessionId);
        const at = Date.now();
        if (cached && at - cached.at < RULES_TTL_MS) return cached.rules;
        const rules = await roomRulesFor(
          handles.sessionFields.use,
          {
            sessionId: message.sessionId,
            platform: message.platform,
            ...(message.venue ? { venue: message.venue } : {}),
          },
          flow.defaults,
        );
        setBounded(roomRules, message.sessionId, { rules, at }, 10_000);
        return rules;
      };

      handles.hooks.use.middleware('inbound:flow', async (context, next) => {
        const { message } = context;
        // Injections and host notices are not people talking to her; a queued turn does not pass the gate again
        // (排着开的那一轮不再过冷却与限速): the gate is here, at arrival, only.
        if (message.source !== undefined || message.hostNotice !== undefined) return next();
        await context.judgeTrigger();
        if (message.triggerType === 'ambient') return next();
        const identity = authorisedIdentityOf(message);
        if (settings.exemptOwners && handles.authority.available && handles.authority.use.isOwner(identity)) {
          return next();
        }
        const room = await rulesOf(message);
        const at = now();
        const verdict = flow.judge(
          {
            sessionId: message.sessionId,
            platform: message.platform,
            person: identity ? `${identity.platform}:${identity.userId}` : undefined,
          },
          at,
          room,
        );
        if (verdict.pass) return next();
        // Held back, not lost: it goes on as room context (archived; a running turn still takes it in).
        message.triggerType = 'ambient';
        log.info(
          `flow: held #${message.arrival} session=${message.sessionId} rule=${verdict.rule} retryAfterMs=${verdict.retryAfterMs}${verdict.notice && settings.notices ? ' notice' : ''}`,
        );
        if (verdict.notice && settings.notices && handles.gateway.available) {
          const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
          // Its catalogue text goes with it: a reader in another language (the WebUI) is shown it in theirs.
          const text = textRef(NOTICE_KEY[verdict.rule], {
            seconds,
            from: room.quietHours.from,
            to: room.quietHours.to,
          });
          const notice: OutgoingMessage = {
            sessionId: message.sessionId,
            platform: message.platform,
            content: handles.i18n.use.t(text),
            text,
            kind: 'system',
            ...(message.venue !== undefined ? { venue: message.venue } : {}),
            ...(message.messageId !== undefined ? { replyTo: message.messageId } : {}),
          };
          // Sent beside the input, not before it: the input's way through the pipeline does not wait for delivery.
          void handles.gateway.use
            .dispatchOutbound(notice)
            .catch((error: unknown) => log.warn('flow: the notice could not be sent', { error: String(error) }));
        }
        return next();
      });

      const gate = new CallGate(settings.maxConcurrentCalls);
      if (gate.enabled) {
        /** Turns holding a call slot now (a turn holds one from its model call's start to its end). */
        const holding = new Set<string>();
        const release = (turnId: string) => {
          if (holding.delete(turnId)) gate.release();
        };
        handles.hooks.use.middleware('agent:llm:before', async (call, next) => {
          // The insertion point runs this chain again before the same call: the slot is taken once.
          if (!holding.has(call.turnId)) {
            if (gate.running >= settings.maxConcurrentCalls) {
              log.debug(`flow: model call of turn ${call.turnId} session=${call.sessionId} waits for a slot`);
            }
            await gate.acquire(call.sessionId);
            holding.add(call.turnId);
          }
          await next();
        });
        handles.hooks.use.middleware('agent:llm:after', async (call, next) => {
          release(call.turnId);
          await next();
        });
        // A call that failed or was stopped has no llm:after; its turn's end gives the slot back.
        handles.hooks.use.middleware('agent:turn:after', async (turn, next) => {
          release(turn.turnId);
          await next();
        });
      }
    },
  });
}

export default createFlowControlPlugin();
