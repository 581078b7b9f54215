// @aalis/plugin-tools: provides the tools service (registry, argument validation, level checks, execution) and
// registers the session setting `enabledToolGroups` when session settings are present.
import { authority } from '@aalis/api-authority';
import { sessionFields } from '@aalis/api-session-settings';
import { ENABLED_TOOL_GROUPS_KEY, toGroupSelection, tools } from '@aalis/api-tools';
import { definePlugin, events, i18n, logger, optional, provide, textRef } from '@aalis/core';
import { ToolRegistry } from './tool-registry.js';

export { checkLevel } from './check-level.js';
export { parseArguments } from './parse-arguments.js';
export { ToolRegistry, type ToolRegistryOptions } from './tool-registry.js';

/** The dynamic option source listing the tool groups in use ('*' first). */
export const TOOL_GROUPS_OPTION_SOURCE = 'tool-groups';

export default definePlugin({
  name: '@aalis/plugin-tools',
  provides: [tools],
  uses: {
    provide,
    events,
    logger,
    i18n,
    authority: optional(authority),
    sessionFields: optional(sessionFields),
  },
  apply({ provide, events, logger, i18n, authority, sessionFields }) {
    const registry = new ToolRegistry({
      events: events.use,
      locale: i18n.use.locale,
      logger: logger.use,
      authority: () => (authority.available ? authority.use : undefined),
      async readGroups(sessionId, scope) {
        if (!sessionFields.available || !sessionFields.use.field(ENABLED_TOOL_GROUPS_KEY)) return undefined;
        try {
          return (await sessionFields.use.get({ sessionId, ...scope }, ENABLED_TOOL_GROUPS_KEY)).value;
        } catch (error) {
          logger.use.warn('cannot read enabledToolGroups; using every group', { sessionId, error: String(error) });
          return undefined;
        }
      },
    });
    provide.use.service(tools, registry);
    // Registrars: deferred until a session settings provider appears, withdrawn when this plugin deactivates.
    sessionFields.use.register({
      key: ENABLED_TOOL_GROUPS_KEY,
      type: 'string[]',
      label: textRef('tools.field.enabledToolGroups'),
      description: textRef('tools.field.enabledToolGroups.description'),
      visibility: 'common',
      level: 1,
      default: ['*'],
      // What the field expects, as the settings error words it (「应为 …,实际为 …」).
      validate: (value) =>
        toGroupSelection(value) === undefined ? textRef('tools.field.enabledToolGroups.expected') : undefined,
      dynamicOptions: { source: TOOL_GROUPS_OPTION_SOURCE },
    });
    sessionFields.use.registerOptionSource(TOOL_GROUPS_OPTION_SOURCE, () => [
      { value: '*', label: '*' },
      ...registry.groups().map((group) => ({ value: group, label: group })),
    ]);
  },
});
