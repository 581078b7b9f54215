// @aalis/plugin-persona: personas from YAML files in <dataDir>/personas (created with one default persona on first
// start), the `persona` session setting, and /persona.reload.
import { commands } from '@aalis/api-commands';
import { PERSONA_FIELD_KEY, persona } from '@aalis/api-persona';
import { sessionFields } from '@aalis/api-session-settings';
import { storage } from '@aalis/api-storage';
import { config, definePlugin, events, i18n, logger, optional, provide, s, textRef } from '@aalis/core';
import { ensurePersonaDirectory } from './default-persona.js';
import { PersonaStore } from './persona-store.js';
import './persona-texts.js';

export { DEFAULT_PERSONA_FILE, defaultPersonaYaml, ensurePersonaDirectory } from './default-persona.js';
export { type LoadedPersonas, loadPersonas } from './load-personas.js';
export { type ParsedPersonaFile, parsePersonaFile } from './parse-persona-file.js';
export { PersonaStore, type PersonaStoreOptions } from './persona-store.js';

/** The dynamic option source listing the loaded personas. */
export const PERSONA_OPTION_SOURCE = 'personas';

export const personaConfig = s.object({
  directory: s.string().nonEmpty().default('personas').describe('Personas directory, relative to the data directory.'),
  defaultPersona: s
    .string()
    .default('default')
    .describe('Persona of sessions that select none; also the id of the file created on first start. Empty = none.'),
});

export default definePlugin({
  name: '@aalis/plugin-persona',
  provides: [persona],
  uses: {
    config,
    storage,
    provide,
    events,
    logger,
    i18n,
    sessionFields: optional(sessionFields),
    commands: optional(commands),
  },
  config: personaConfig,
  async apply({ config, storage, provide, events, logger, i18n, sessionFields, commands }) {
    const dir = storage.use.resolve(config.use.directory);
    const locale = i18n.use.locale;
    const defaultId = config.use.defaultPersona;
    if (await ensurePersonaDirectory({ dir, id: defaultId === '' ? 'default' : defaultId, locale })) {
      logger.use.info('created the personas directory with a default persona', { dir });
    }
    const store = new PersonaStore({
      dir,
      locale,
      defaultPersona: defaultId,
      events: events.use,
      logger: logger.use,
      async readSetting(scope) {
        if (!sessionFields.available || !sessionFields.use.field(PERSONA_FIELD_KEY)) return undefined;
        try {
          return (await sessionFields.use.get(scope, PERSONA_FIELD_KEY)).value;
        } catch (error) {
          logger.use.warn('cannot read the persona setting', { sessionId: scope.sessionId, error: String(error) });
          return undefined;
        }
      },
    });
    await store.reload();
    provide.use.service(persona, store);

    // Registrars: attached when the services appear, withdrawn when this plugin deactivates.
    sessionFields.use.register({
      key: PERSONA_FIELD_KEY,
      type: 'select',
      label: textRef('persona.field.persona'),
      description: textRef('persona.field.persona.description'),
      visibility: 'composer',
      level: 1,
      ...(defaultId === '' ? {} : { default: defaultId }),
      // What the field expects, as the settings error words it: 「应为 已有的人设之一(…),实际为 "x"」.
      validate: (value) =>
        store.get(value)
          ? undefined
          : textRef('persona.field.expected', {
              known:
                store
                  .list()
                  .map((entry) => entry.id)
                  .join(', ') || '-',
            }),
      dynamicOptions: { source: PERSONA_OPTION_SOURCE },
    });
    sessionFields.use.registerOptionSource(PERSONA_OPTION_SOURCE, () =>
      store.list().map((entry) => ({ value: entry.id, label: entry.name })),
    );
    commands.use.register({
      name: 'persona.reload',
      description: textRef('persona.command.reload'),
      level: 'owner',
      async handler({ t }) {
        const report = await store.reload();
        const lines = [
          t(
            textRef('persona.command.reloaded', {
              count: report.personas.length,
              ids: report.personas.map((entry) => entry.id).join(', ') || '-',
            }),
          ),
        ];
        if (report.problems.length > 0) {
          lines.push(t(textRef('persona.command.problems')));
          for (const problem of report.problems) lines.push(`- ${problem.localized(locale)}`);
        }
        return lines.join('\n');
      },
    });
  },
});
