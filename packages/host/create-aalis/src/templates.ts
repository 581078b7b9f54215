// The templates and what a new deployment's files say: its package.json, aalis.config.yaml and README.md.
import { type Locale, translate } from '@aalis/core';
import { OPTIONAL_PLUGINS } from '@aalis/optional-plugins';
import './create-texts.js';

export const TEMPLATE_NAMES = ['minimal', 'standard', 'full'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
export const PLATFORM_NAMES = ['onebot', 'telegram'] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

export interface ProjectOptions {
  /** The package name of the deployment (from its directory's name). */
  name: string;
  template: TemplateName;
  llm: { baseUrl?: string; model?: string; apiKey?: string };
  platforms: { onebot?: { url: string }; telegram?: { token: string } };
  locale: Locale;
  /** The Aalis version the deployment installs (this package's own: the packages are released together). */
  version: string;
}

/**
 * The optional plugins each template installs: minimal none, standard media, the file reader and MCP, full every
 * first-party plugin. A platform chosen with --platform is installed whatever the template.
 */
const TEMPLATE_PLUGINS: Record<TemplateName, readonly string[]> = {
  minimal: [],
  standard: ['@aalis/plugin-media', '@aalis/plugin-file-reader', '@aalis/plugin-mcp'],
  full: OPTIONAL_PLUGINS,
};

/**
 * What each template turns on among the runtime's plugins (a section `false` turns one off). minimal: the terminal
 * and the WebUI over SQLite, no background work, no long-term memory (media and the file reader are not installed).
 * standard: the defaults — long-term memory, media, the file reader, reminders, subtasks, workflows — and MCP ready to
 * be given servers. full: also the sections of the platforms and of tracing, written out (commented) so that filling
 * one in turns it on.
 */
const TEMPLATE_SECTIONS: Record<TemplateName, string[]> = {
  minimal: ['  schedule: false', '  subtask: false', '  workflow: false', '  memory-vector: false'],
  standard: [
    '  # MCP servers whose tools she may call (stdio or HTTP), e.g.:',
    '  # mcp:',
    '  #   servers:',
    '  #     files: { command: npx, args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }',
  ],
  full: [
    '  # MCP servers whose tools she may call (stdio or HTTP), e.g.:',
    '  # mcp:',
    '  #   servers:',
    '  #     files: { command: npx, args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }',
    '  # QQ through OneBot v11 (NapCat, Lagrange, go-cqhttp): enabled when url is set.',
    '  # platform-onebot: { url: ws://127.0.0.1:3001 }',
    '  # Telegram: enabled when token is set.',
    '  # platform-telegram: { token: "123456:ABC…" }',
    '  # Also installed: platform-satori, platform-discord, platform-lark, platform-slack, platform-qq,',
    '  # platform-dingtalk, platform-wecom (see docs/configuration.md for their keys).',
    '  # OpenTelemetry traces: set OTEL_EXPORTER_OTLP_ENDPOINT in the environment.',
  ],
};

/** A YAML scalar for any text: a JSON string is a YAML double-quoted scalar. */
const quoted = (text: string) => JSON.stringify(text);

export function configText(options: ProjectOptions): string {
  const lines = [translate({ key: 'create.config.header', params: { template: options.template } }, options.locale)];
  lines.push(`locale: ${options.locale}`);
  const { baseUrl, model, apiKey } = options.llm;
  if (baseUrl) {
    lines.push('llm:', `  baseUrl: ${quoted(baseUrl)}`);
    if (model) lines.push(`  model: ${quoted(model)}`);
    if (apiKey) lines.push(`  apiKey: ${quoted(apiKey)}`);
  }
  const sections = [...TEMPLATE_SECTIONS[options.template]];
  if (options.platforms.onebot) {
    sections.push('  platform-onebot:', `    url: ${quoted(options.platforms.onebot.url)}`);
  }
  if (options.platforms.telegram) {
    sections.push('  platform-telegram:', `    token: ${quoted(options.platforms.telegram.token)}`);
  }
  lines.push('plugins:', ...sections);
  // An empty mapping when every line under plugins: is a comment.
  if (sections.every((line) => line.trimStart().startsWith('#')))
    lines[lines.length - sections.length - 1] = 'plugins: {}';
  return `${lines.join('\n')}\n`;
}

/** The packages a deployment installs: the runtime, the WebUI, and the optional plugins its template and platforms use. */
export function dependenciesOf(
  options: Pick<ProjectOptions, 'template' | 'platforms' | 'version'>,
): Record<string, string> {
  const range = `^${options.version}`;
  const plugins = new Set(TEMPLATE_PLUGINS[options.template]);
  if (options.platforms.onebot) plugins.add('@aalis/plugin-platform-onebot');
  if (options.platforms.telegram) plugins.add('@aalis/plugin-platform-telegram');
  const names = ['@aalis/runtime', '@aalis/plugin-webui', ...[...plugins].sort()];
  return Object.fromEntries(names.map((name) => [name, range]));
}

export function manifest(options: ProjectOptions): Record<string, unknown> {
  return {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      start: 'aalis start',
      serve: 'aalis serve',
      chat: 'aalis chat',
      'webui-link': 'aalis webui-link',
    },
    dependencies: dependenciesOf(options),
    // npm 11 asks a project to allow its dependencies' install scripts: better-sqlite3 unpacks or builds its addon;
    // protobufjs's postinstall (a version check of its CLI, pulled in by the Lark SDK) is reviewed and not needed, so
    // npm has nothing to warn about.
    allowScripts: { 'better-sqlite3': true, protobufjs: false },
  };
}

export function readmeText(options: ProjectOptions): string {
  const t = (key: string, params?: Record<string, string>) =>
    translate({ key, ...(params ? { params } : {}) }, options.locale);
  const model = options.llm.baseUrl
    ? t('create.readme.endpoint', {
        baseUrl: options.llm.baseUrl,
        model: options.llm.model || t('create.readme.firstModel'),
      })
    : t('create.readme.offline');
  return `${t('create.readme.title', { name: options.name, template: options.template })}\n\n${t('create.readme.body', { model })}\n`;
}

/** A package name for the deployment from its directory's name (npm's rules: lower case, URL-safe). */
export function packageNameFor(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'aalis-bot' : name.slice(0, 214);
}
