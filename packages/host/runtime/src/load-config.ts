// Reads aalis.config.yaml (writing the commented defaults on the first run), applies the environment overrides,
// and validates everything — the host keys and every enabled plugin's section — before anything starts, so a
// configuration that cannot start is reported with file, line, path, expected and received, and touches nothing.
// Precedence: defaults < file < environment.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import {
  DEFAULT_LOCALE,
  describeReceived,
  isLocale,
  type Locale,
  type PreferenceSnapshot,
  textRef,
  translate,
} from '@aalis/core';
import { maskUrlCredentials, parseBaseUrl } from '@aalis/http-transport/base-url';
import { type ConfigPath, parseConfigText, splitPath } from './config-file.js';
import type { ConfigProblem, ProblemSource } from './config-problems.js';
import { DEFAULT_CONFIG_FILE } from './default-config-file.js';
import { endpointProblems } from './endpoint-checks.js';
import { fillIn } from './fill-in-sections.js';
import { type HostConfig, hostConfigSchema } from './host-config.js';
import type { PluginSlot } from './plugin-set.js';
import './runtime-texts.js';
import { passwordOf } from './url-password.js';

/** The environment variables and the keys they set. */
export const ENVIRONMENT_KEYS = {
  AALIS_LLM_BASE_URL: ['llm', 'baseUrl'],
  AALIS_LLM_API_KEY: ['llm', 'apiKey'],
  AALIS_LLM_MODEL: ['llm', 'model'],
  AALIS_DATA_DIR: ['dataDir'],
  AALIS_DATABASE_URL: ['database'],
  AALIS_LOG_LEVEL: ['logLevel'],
  AALIS_LOCALE: ['locale'],
  AALIS_WEBUI_HOST: ['webui', 'host'],
  AALIS_WEBUI_PORT: ['webui', 'port'],
} as const;

/** Variables whose value is a number (given as decimal digits; anything else is reported against the schema). */
const NUMERIC_VARIABLES: ReadonlySet<string> = new Set(['AALIS_WEBUI_PORT']);

export interface PlannedPlugin {
  slot: PluginSlot;
  /** The section the plugin receives (the file's, with the runtime's filled-in keys). */
  section: Record<string, unknown>;
}

export interface LoadedConfig {
  /** Absolute path of the configuration file. */
  file: string;
  /** Whether this run wrote the file (first run). */
  created: boolean;
  host: HostConfig;
  /** Absolute data directory. */
  dataDir: string;
  /** The enabled plugins, in registration order. */
  plugins: PlannedPlugin[];
  /** Which model provider the configuration selects. */
  provider: 'openai' | 'offline' | 'none';
  /** Preferences from the configuration (before persisted run-time changes). */
  preferences: PreferenceSnapshot;
  /** Secret values never to be logged. */
  secrets: string[];
}

export type LoadResult = { ok: true; config: LoadedConfig } | { ok: false; problems: ConfigProblem[]; locale: Locale };

export interface LoadConfigOptions {
  file: string;
  env: Record<string, string | undefined>;
  slots: readonly PluginSlot[];
  /** Write the commented defaults when the file does not exist (default true); only once the whole configuration is valid. */
  createIfMissing?: boolean;
  /** The file was named explicitly (`--config`): a missing one is a problem, never created. */
  requireFile?: boolean;
  /** The machine's time zone (for timeZone: ""). */
  systemTimeZone: () => string;
  /** The file's text as it would be after a change (the console checks a change before writing it). */
  text?: string;
  /** Word the problems in this locale instead of the configured one (the console's reader's). */
  wording?: Locale;
}

export function loadConfig(options: LoadConfigOptions): LoadResult {
  const file = resolve(options.file);
  const locale = localeHint(options.env);
  const missing = options.text === undefined && !existsSync(file);
  if (missing && options.requireFile) return failure([{ kind: 'missing', source: { file } }], locale);
  // The defaults are written only when everything (the environment included) is valid: a configuration that cannot
  // start creates nothing.
  const create = missing && options.createIfMissing !== false;
  let text = create ? DEFAULT_CONFIG_FILE : (options.text ?? '');
  if (!missing && options.text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      return failure([{ kind: 'unreadable', source: { file }, reason: String(error) }], locale);
    }
  }
  const parsed = parseConfigText(file, text);
  if ('problems' in parsed) return failure(parsed.problems, locale);

  // Defaults < file < environment.
  const raw = structuredClone(parsed.value);
  const fromEnvironment = new Map<string, string>();
  for (const [variable, path] of Object.entries(ENVIRONMENT_KEYS)) {
    const value = options.env[variable];
    if (value === undefined || value === '') continue;
    setIn(raw, path, NUMERIC_VARIABLES.has(variable) && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value);
    fromEnvironment.set(path.join('.'), variable);
  }
  const sourceOf = (path: ConfigPath): ProblemSource => {
    const variable = fromEnvironment.get(path.join('.'));
    return variable ? { variable } : parsed.locate(path);
  };

  const problems: ConfigProblem[] = [];
  // Problems are worded in the locale the configuration asks for (when it names a valid one).
  const asked = (raw as { locale?: unknown } | null)?.locale;
  const effectiveLocale = options.wording ?? (isLocale(asked) ? asked : locale);
  const { value: host, issues } = hostConfigSchema.validate(raw, effectiveLocale);
  for (const issue of issues) {
    const path = splitPath(issue.path);
    problems.push({ kind: 'issue', source: sourceOf(path), path: issue.path, ...pick(issue) });
  }
  if (problems.length > 0) return failure(problems, effectiveLocale);

  // Plugin sections: known keys, a section / true / false each.
  const byKey = new Map<string, PluginSlot>();
  for (const slot of options.slots) {
    byKey.set(slot.alias, slot);
    byKey.set(slot.name, slot);
  }
  const sections = new Map<PluginSlot, { key: string; value: unknown }>();
  for (const [key, value] of Object.entries(host.plugins)) {
    const slot = byKey.get(key);
    const path = ['plugins', key];
    if (!slot) {
      problems.push({
        kind: 'unknownPlugin',
        source: sourceOf(path),
        path: path.join('.'),
        known: options.slots.map((candidate) => candidate.alias).join(', '),
      });
      continue;
    }
    if (sections.has(slot)) {
      problems.push({
        kind: 'issue',
        source: sourceOf(path),
        path: path.join('.'),
        expected: translate(
          textRef('runtime.config.listedTwice', { alias: slot.alias, name: slot.name }),
          effectiveLocale,
        ),
        received: describeReceived(value, effectiveLocale),
      });
      continue;
    }
    if (value !== null && typeof value !== 'boolean' && (typeof value !== 'object' || Array.isArray(value))) {
      problems.push({
        kind: 'issue',
        source: sourceOf(path),
        path: path.join('.'),
        expected: translate(textRef('runtime.config.pluginSection'), effectiveLocale),
        received: describeReceived(value, effectiveLocale),
      });
      continue;
    }
    // An optional plugin that is not installed: its section cannot be checked nor run, and the fix is one command.
    if (slot.notInstalled && value !== false) {
      problems.push({ kind: 'pluginNotInstalled', source: sourceOf(path), path: path.join('.'), name: slot.name });
      continue;
    }
    if (value === false && slot.essential) {
      problems.push({
        kind: 'issue',
        source: sourceOf(path),
        path: path.join('.'),
        expected: translate(textRef('runtime.config.required'), effectiveLocale),
        received: 'false',
      });
      continue;
    }
    sections.set(slot, { key, value });
  }
  if (problems.length > 0) return failure(problems, effectiveLocale);

  const baseDir = dirname(file);
  const dataDir = fromEnvironment.has('dataDir')
    ? resolve(host.dataDir)
    : isAbsolute(host.dataDir)
      ? host.dataDir
      : resolve(baseDir, host.dataDir);
  const timeZone = host.timeZone === '' ? options.systemTimeZone() : host.timeZone;
  const sectionOf = (alias: string): Record<string, unknown> | false | undefined => {
    const slot = options.slots.find((candidate) => candidate.alias === alias);
    const entry = slot ? sections.get(slot) : undefined;
    if (!entry || entry.value === null || entry.value === true) return entry ? {} : undefined;
    if (entry.value === false) return false;
    return structuredClone(entry.value as Record<string, unknown>);
  };

  // The model provider: the OpenAI-compatible one when an endpoint is configured, else the offline model.
  const openaiSection = sectionOf('llm-openai');
  const baseUrl = host.llm.baseUrl || (openaiSection ? (openaiSection.baseUrl as string | undefined) : undefined);
  const openaiEnabled = openaiSection !== false && typeof baseUrl === 'string' && baseUrl !== '';
  // Claude: a plugins.llm-anthropic section, or ANTHROPIC_API_KEY in the environment (filled in as its apiKey).
  const anthropicSection = sectionOf('llm-anthropic');
  const anthropicKey = options.env.ANTHROPIC_API_KEY;
  const anthropicEnabled =
    anthropicSection !== false &&
    (anthropicSection !== undefined || (anthropicKey !== undefined && anthropicKey !== ''));
  const offlineSection = sectionOf('llm-offline');
  const offlineEnabled =
    offlineSection !== false && (!(openaiEnabled || anthropicEnabled) || offlineSection !== undefined);

  const cliSection = sectionOf('cli');
  const cliUserId =
    cliSection && typeof cliSection.userId === 'string' && cliSection.userId !== '' ? cliSection.userId : 'local';

  const serverSection = sectionOf('session-server');
  const webuiOwnerUserId =
    serverSection === false
      ? undefined
      : serverSection && typeof serverSection.ownerUserId === 'string' && serverSection.ownerUserId !== ''
        ? serverSection.ownerUserId
        : 'owner';

  const plugins: PlannedPlugin[] = [];
  for (const slot of options.slots) {
    const configured = sectionOf(slot.alias);
    if (configured === false) continue;
    if (slot.alias === 'llm-openai' && !openaiEnabled) continue;
    if (slot.alias === 'llm-offline' && !offlineEnabled) continue;
    if (slot.alias === 'llm-anthropic' && !anthropicEnabled) continue;
    if (slot.enabledWhen && !slot.enabledWhen(configured, options.env)) continue;
    const section: Record<string, unknown> = configured ?? {};
    fillIn(slot.alias, section, { host, dataDir, timeZone, cliUserId, webuiOwnerUserId });
    if (slot.alias === 'llm-anthropic' && section.apiKey === undefined && anthropicKey) section.apiKey = anthropicKey;
    plugins.push({ slot, section });
  }

  // Each enabled plugin's section against its schema.
  for (const { slot, section } of plugins) {
    if (!slot.schema) continue;
    const key = sections.get(slot)?.key ?? slot.alias;
    for (const issue of slot.schema.validate(section, effectiveLocale).issues) {
      const path = ['plugins', key, ...splitPath(issue.path)];
      problems.push({ kind: 'issue', source: sourceOf(path), path: path.join('.'), ...pick(issue) });
    }
  }
  if (problems.length > 0) return failure(problems, effectiveLocale);

  const preferences: PreferenceSnapshot = {
    global: { ...host.servicePreferences },
    plugins: structuredClone(host.pluginServicePreferences),
  };
  if (openaiEnabled && host.llm.model !== '' && preferences.global.llm === undefined) {
    preferences.global.llm = `openai/${host.llm.model}`;
  }
  const openaiPlanned = plugins.find((plugin) => plugin.slot.alias === 'llm-openai');
  const secrets: string[] = [];
  if (openaiPlanned) {
    // The endpoint: an http(s) URL with a host and a usable port. Its credentials, if any, are secrets.
    const value = openaiPlanned.section.baseUrl;
    const parsed = typeof value === 'string' ? parseBaseUrl(value) : undefined;
    if (parsed && !parsed.ok) {
      const key = sections.get(openaiPlanned.slot)?.key ?? 'llm-openai';
      const path: ConfigPath = host.llm.baseUrl !== '' ? ['llm', 'baseUrl'] : ['plugins', key, 'baseUrl'];
      problems.push({
        kind: 'issue',
        source: sourceOf(path),
        path: path.join('.'),
        expected: translate(textRef(`runtime.config.baseUrl.${parsed.problem}`), effectiveLocale),
        received: describeReceived(maskUrlCredentials(value as string), effectiveLocale),
      });
      return failure(problems, effectiveLocale);
    }
    if (parsed?.ok) secrets.push(...parsed.endpoint.secrets);
  }
  const unusable = endpointProblems({
    plugins,
    keyOf: (plugin) => sections.get(plugin.slot)?.key ?? plugin.slot.alias,
    sourceOf,
    env: options.env,
    locale: effectiveLocale,
  });
  if (unusable.length > 0) return failure(unusable, effectiveLocale);
  // The database URL's password is a secret like the API key.
  const databasePassword = passwordOf(host.database);
  if (databasePassword !== undefined) secrets.push(databasePassword);
  const apiKey = openaiPlanned?.section.apiKey;
  if (typeof apiKey === 'string' && apiKey !== '') secrets.push(apiKey);
  // Platform tokens and other keys a slot marks as secret are redacted from every log line like the API key.
  for (const { slot, section } of plugins) secrets.push(...(slot.secretsOf?.(section) ?? []));

  let created = false;
  if (create) {
    writeFileSync(file, DEFAULT_CONFIG_FILE);
    created = true;
  }
  return {
    ok: true,
    config: {
      file,
      created,
      host: { ...host, timeZone },
      dataDir,
      plugins,
      provider: openaiEnabled ? 'openai' : offlineEnabled ? 'offline' : 'none',
      preferences,
      secrets,
    },
  };
}

function setIn(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

function pick(issue: { expected: string; received: string }) {
  // A value printed back (a URL in the wrong place, say) never shows the credentials written into a URL.
  return { expected: issue.expected, received: maskUrlCredentials(issue.received) };
}

function failure(problems: ConfigProblem[], locale: Locale): LoadResult {
  return { ok: false, problems, locale };
}

/** The locale for messages before the file is read: AALIS_LOCALE when valid, else the default. */
export function localeHint(env: Record<string, string | undefined>): Locale {
  return isLocale(env.AALIS_LOCALE) ? env.AALIS_LOCALE : DEFAULT_LOCALE;
}
