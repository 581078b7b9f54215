// @aalis/plugin-gateway: the gateway service: inbound phases (command → flow → trigger → dispatch) with arrival
// numbers, and dispatchOutbound through the outbound:dispatch chain.
import { agent } from '@aalis/api-agent';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { sessionFields } from '@aalis/api-session-settings';
import { config, definePlugin, events, logger, optional, provide, s } from '@aalis/core';
import { Gateway } from './gateway.js';
import { triggerFields } from './trigger-fields.js';

export { Gateway, type GatewayOptions, nextArrival } from './gateway.js';
export {
  JOIN_TRIGGER,
  judgeTrigger,
  POKE_TRIGGER,
  type TriggerRules,
  type TriggerVerdict,
} from './judge-trigger.js';
export { TRIGGER_FIELD, type TriggerDefaults, triggerFields, triggerRulesFor } from './trigger-fields.js';
export { assertIncoming, assertOutgoing } from './validate-messages.js';

export const gatewayConfig = s.object({
  trigger: s.object({
    names: s
      .array(s.string())
      .default([])
      .describe(
        'Her names and nicknames: a multi-party room message containing one (case-insensitive) is addressed to her. The default of the session field triggerNames (each settings layer may override it).',
      ),
    keywords: s
      .array(s.string())
      .default([])
      .describe(
        'Keywords that address her like her name does (case-insensitive substring). The default of the session field triggerKeywords.',
      ),
    poke: s
      .boolean()
      .default(true)
      .describe(
        "Whether a poke (QQ's 戳一戳, where the platform has one) addresses her. The default of the session field triggerPoke.",
      ),
    joinChance: s
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe(
        'Chance (0–1) that she joins an unaddressed room message on her own; 0 (the default) = never. The default of the session field joinChance.',
      ),
    joinIntervalSeconds: s
      .number()
      .min(0)
      .default(300)
      .describe(
        'The shortest time between two such joins in one room, in seconds. The default of the session field joinIntervalSeconds.',
      ),
    unaddressed: s
      .enum(['drop', 'ambient'])
      .default('ambient')
      .describe(
        'Multi-party room messages not addressed to her (no name, no @-mention flagged by the platform): pass them on with triggerType "ambient" (they join a running turn, queue behind one, and are kept as room context without a turn when the room is idle), or drop them unread.',
      ),
  }),
});

export default definePlugin({
  name: '@aalis/plugin-gateway',
  provides: [gateway],
  uses: {
    config,
    hooks,
    events,
    logger,
    provide,
    commands: optional(commands),
    agent: optional(agent),
    sessionManager: optional(sessionManager),
    sessionFields: optional(sessionFields),
  },
  config: gatewayConfig,
  apply({ config, hooks, events, logger, provide, commands, agent, sessionManager, sessionFields }) {
    const trigger = config.use.trigger;
    const defaults = {
      names: trigger.names,
      keywords: trigger.keywords,
      poke: trigger.poke,
      joinChance: trigger.joinChance,
      joinIntervalSeconds: trigger.joinIntervalSeconds,
      unaddressed: trigger.unaddressed,
    };
    const service = new Gateway({
      hooks: hooks.use,
      events: events.use,
      logger: logger.use,
      commands: () => (commands.available ? commands.use : undefined),
      agent: () => (agent.available ? agent.use : undefined),
      sessionManager: () => (sessionManager.available ? sessionManager.use : undefined),
      sessionFields: () => (sessionFields.available ? sessionFields.use : undefined),
      trigger: defaults,
    });
    if (sessionFields.available) for (const field of triggerFields(defaults)) sessionFields.use.register(field);
    provide.use.service(gateway, service);
  },
});
