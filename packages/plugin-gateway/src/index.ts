// @aalis/plugin-gateway: the gateway service: inbound phases (command → flow → trigger → dispatch) with arrival
// numbers, and dispatchOutbound through the outbound:dispatch chain.
import { agent } from '@aalis/api-agent';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { config, definePlugin, events, logger, optional, provide, s } from '@aalis/core';
import { Gateway } from './gateway.js';

export { Gateway, type GatewayOptions, nextArrival } from './gateway.js';
export { judgeTrigger, type TriggerRules, type TriggerVerdict } from './judge-trigger.js';
export { assertIncoming, assertOutgoing } from './validate-messages.js';

export const gatewayConfig = s.object({
  trigger: s.object({
    names: s
      .array(s.string())
      .default([])
      .describe('Her names: a multi-party room message containing one (case-insensitive) is addressed to her.'),
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
  },
  config: gatewayConfig,
  apply({ config, hooks, events, logger, provide, commands, agent, sessionManager }) {
    const service = new Gateway({
      hooks: hooks.use,
      events: events.use,
      logger: logger.use,
      commands: () => (commands.available ? commands.use : undefined),
      agent: () => (agent.available ? agent.use : undefined),
      sessionManager: () => (sessionManager.available ? sessionManager.use : undefined),
      trigger: { names: config.use.trigger.names, unaddressed: config.use.trigger.unaddressed },
    });
    provide.use.service(gateway, service);
  },
});
