// The optional first-party plugins, in a package of their own so that `aalis plugin add` can tell them without
// loading any plugin, and create-aalis can list them without installing the runtime.

/**
 * The first-party plugins a deployment installs only when it uses them: optional peer dependencies of @aalis/runtime
 * (never installed with it), listed in a deployment's package.json by create-aalis (`full`: all of them) or added with
 * `aalis plugin add`. Chosen by what each pulls in beyond the runtime's core (docs/decisions/install-from-registry.md).
 */
export const OPTIONAL_PLUGINS = [
  '@aalis/plugin-media',
  '@aalis/plugin-file-reader',
  '@aalis/plugin-otel',
  '@aalis/plugin-platform-onebot',
  '@aalis/plugin-platform-telegram',
  '@aalis/plugin-platform-satori',
  '@aalis/plugin-platform-discord',
  '@aalis/plugin-platform-lark',
  '@aalis/plugin-platform-slack',
  '@aalis/plugin-platform-qq',
  '@aalis/plugin-platform-dingtalk',
  '@aalis/plugin-platform-wecom',
  '@aalis/plugin-mcp',
] as const;

export type OptionalPluginName = (typeof OPTIONAL_PLUGINS)[number];

/** Whether a package name is one of the optional first-party plugins. */
export function isOptionalPlugin(name: string): name is OptionalPluginName {
  return (OPTIONAL_PLUGINS as readonly string[]).includes(name);
}
