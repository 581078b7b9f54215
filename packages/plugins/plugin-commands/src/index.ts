// @aalis/plugin-commands: the commands service, and the /help and /clear commands.
import { agent } from '@aalis/api-agent';
import { authority, isRequiredLevel } from '@aalis/api-authority';
import { commands } from '@aalis/api-commands';
import { memory } from '@aalis/api-memory';
import {
  config,
  coreErrors,
  definePlugin,
  describeReceived,
  events,
  i18n,
  lifecycle,
  logger,
  optional,
  provide,
  s,
} from '@aalis/core';
import { clearCommand } from './clear-command.js';
import { CommandRegistry } from './command-registry.js';
import { helpCommand } from './help-command.js';
import './texts.js';

export { clearCommand, clearTypesOf, HISTORY_CLEAR_TYPE } from './clear-command.js';
export { CommandRegistry, type CommandRegistryOptions } from './command-registry.js';
export { helpCommand } from './help-command.js';

export const commandsConfig = s.object({
  clearLevel: s
    .unknown()
    .default(0)
    .describe('Authority level needed for /clear: an integer ≥ 0 (0 = everyone) or "owner".'),
  helpPageSize: s.number().integer().min(1).default(10).describe('Commands per /help page.'),
});

export default definePlugin({
  name: '@aalis/plugin-commands',
  provides: [commands],
  uses: {
    config,
    events,
    i18n,
    lifecycle,
    logger,
    provide,
    authority: optional(authority),
    memory: optional(memory),
    agent: optional(agent),
  },
  config: commandsConfig,
  apply({ config, events, i18n, lifecycle, logger, provide, authority, memory, agent }) {
    const { clearLevel, helpPageSize } = config.use;
    if (!isRequiredLevel(clearLevel)) {
      throw coreErrors.AALIS_CONFIG_INVALID({
        plugin: '@aalis/plugin-commands',
        field: 'clearLevel',
        expected: 'an integer ≥ 0 or "owner"',
        received: describeReceived(clearLevel),
      });
    }
    const registry = new CommandRegistry({
      locale: i18n.use.locale,
      callerOf: (identity) =>
        authority.available
          ? authority.use.callerOf(identity)
          : identity
            ? { identity, isOwner: false, level: 0 }
            : { isOwner: false, level: 0 },
      events: events.use,
      logger: logger.use,
    });
    const owner = { instanceId: '@aalis/plugin-commands', pluginName: '@aalis/plugin-commands' };
    lifecycle.use.onDispose(registry.register(helpCommand({ registry, pageSize: helpPageSize }), owner));
    lifecycle.use.onDispose(
      registry.register(clearCommand({ memory, agent, events: events.use, level: clearLevel }), owner),
    );
    provide.use.service(commands, registry);
  },
});
