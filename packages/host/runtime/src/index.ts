// @aalis/runtime: the host runtime and the `aalis` command — configuration file and environment overrides, the
// default plugin set, logging, drain on signals — plus the built-in tools and the configuration reference.

export { isOptionalPlugin, OPTIONAL_PLUGINS } from '@aalis/optional-plugins';
export { bannerLines } from './banner.js';
export { createBasicToolsPlugin, describeTime, isTimeZone, systemTimeZone } from './basic-tools.js';
export { calculate, formatNumber } from './calculator.js';
export { type CliCommand, parseArguments } from './cli-arguments.js';
export { type ConfigProblem, formatConfigProblems, formatProblem, type ProblemSource } from './config-problems.js';
export { configReference } from './config-reference.js';
export { CONFIG_FILE_NAME, DEFAULT_CONFIG_FILE } from './default-config-file.js';
export { type HostConfig, hostConfigSchema } from './host-config.js';
export { createHostPlugin, HOST_PLUGIN_NAME, platformRegistry } from './host-plugin.js';
export {
  ENVIRONMENT_KEYS,
  type LoadConfigOptions,
  type LoadedConfig,
  type LoadResult,
  loadConfig,
  type PlannedPlugin,
} from './load-config.js';
export { fileLogSink, formatLogLine, lineLogSink, redactor } from './log-sinks.js';
export { PersistedPreferences } from './persisted-preferences.js';
export { notInstalledSlot, type PluginSlot, pluginSlots } from './plugin-set.js';
export { runtimeErrors } from './runtime-errors.js';
export { type RunningAalis, runtimeVersion, type StartAalisOptions, startAalis } from './start-aalis.js';
