// The configuration a one-off command reads (aalis memory, aalis webui-link): the file in the working directory or
// the one --config names (which must exist then), with the sections of the runtime's and the installed plugins; never
// created. A configuration that does not check is written to standard error and ends the command with status 2.
import { dirname, resolve } from 'node:path';
import { textRef, translate } from '@aalis/core';
import { systemTimeZone } from './basic-tools.js';
import { formatConfigProblems } from './config-problems.js';
import { CONFIG_FILE_NAME } from './default-config-file.js';
import { installedPluginSlots } from './installed-plugins.js';
import { type LoadedConfig, loadConfig } from './load-config.js';
import { pluginSlots } from './plugin-set.js';

export interface CommandConfig {
  config: LoadedConfig;
  /** Words a runtime text in the configured locale. */
  t(key: string, params?: Record<string, string | number>): string;
}

/** The command's configuration, or its exit status (2) once the problems are written to `stderr`. */
export async function loadCommandConfig(options: {
  cwd: string;
  configFile?: string;
  env: Record<string, string | undefined>;
  stderr: NodeJS.WritableStream;
}): Promise<CommandConfig | 2> {
  const file = resolve(options.cwd, options.configFile ?? CONFIG_FILE_NAME);
  const loaded = loadConfig({
    file,
    env: options.env,
    // Sections of installed plugins are valid keys here too.
    slots: [...(await pluginSlots()), ...installedPluginSlots(dirname(file))],
    createIfMissing: false,
    // A file named with --config must exist, as for every other command.
    requireFile: options.configFile !== undefined,
    systemTimeZone,
  });
  if (!loaded.ok) {
    options.stderr.write(`${formatConfigProblems(loaded.problems, loaded.locale)}\n`);
    return 2;
  }
  const { config } = loaded;
  const locale = config.host.locale;
  return { config, t: (key, params) => translate(textRef(key, params), locale) };
}
