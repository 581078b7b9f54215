// The default plugin set: the specification's "minimal" template and more, in registration order, each with a
// short name usable as its key under `plugins:` in aalis.config.yaml. Plugins a default run does not enable (model
// providers other than the offline one, OpenTelemetry, the room platforms, MCP, the session server) are imported only
// when their slot is enabled: each lazy slot keeps its schema from a light module of its package, so validation and
// the configuration reference need none of their code (docs/decisions/lazy-plugins.md).
// The optional plugins (OPTIONAL_PLUGINS: the platforms, OpenTelemetry, MCP, media, the file reader) are not
// dependencies of @aalis/runtime: a deployment installs those its template uses (docs/decisions/install-from-registry.md).
// Their slots are there all the same, with the same keys; the schema module of one that is not installed cannot be
// imported, so its slot says so, and a section for it is a configuration problem naming `aalis plugin add`.
import type { AnyPluginDefinition, Schema } from '@aalis/core';
import { headerSecrets } from '@aalis/http-transport/config-schema';
import agentPlugin from '@aalis/plugin-agent';
import authorityPlugin from '@aalis/plugin-authority';
import budgetPlugin from '@aalis/plugin-budget';
import { cliConfigSchema } from '@aalis/plugin-cli';
import commandsPlugin from '@aalis/plugin-commands';
import contributionsPlugin from '@aalis/plugin-contributions';
import { embeddingOpenAiConfigSchema } from '@aalis/plugin-embedding-openai/embedding-openai-config';
import flowControlPlugin from '@aalis/plugin-flow-control';
import gatewayPlugin from '@aalis/plugin-gateway';
import hooksPlugin from '@aalis/plugin-hooks';
import { anthropicConfigSchema } from '@aalis/plugin-llm-anthropic/config-schema';
import offlinePlugin from '@aalis/plugin-llm-offline';
import { openAiConfigSchema } from '@aalis/plugin-llm-openai/config-schema';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import memorySummaryPlugin from '@aalis/plugin-memory-summary';
import memoryVectorPlugin from '@aalis/plugin-memory-vector';
import archivePlugin from '@aalis/plugin-message-archive';
import mutePlugin from '@aalis/plugin-mute';
import personaPlugin from '@aalis/plugin-persona';
import promptBudgetPlugin from '@aalis/plugin-prompt-budget';
import schedulePlugin from '@aalis/plugin-schedule';
import sessionManagerPlugin from '@aalis/plugin-session-manager';
import { serverConfigSchema } from '@aalis/plugin-session-server/server-config';
import sessionSettingsPlugin from '@aalis/plugin-session-settings';
import skillsPlugin from '@aalis/plugin-skills';
import storagePlugin from '@aalis/plugin-storage';
import subtaskPlugin from '@aalis/plugin-subtask';
import toolsPlugin from '@aalis/plugin-tools';
import userProfilePlugin from '@aalis/plugin-user-profile';
import { workflowConfigSchema } from '@aalis/plugin-workflow/workflow-config';
import { createBasicToolsPlugin } from './basic-tools.js';
import { HOST_PLUGIN_NAME } from './host-plugin.js';
import { passwordOf } from './url-password.js';

export interface PluginSlot {
  /** The key under `plugins:` (the package name works too). */
  alias: string;
  /** The plugin's name (its package name, or `@aalis/runtime/<part>` for the runtime's own). */
  name: string;
  /** The plugin instance id (default: the name). Model ids start with the llm providers' ids. */
  id?: string;
  /** The plugin's config schema (for validation and the configuration reference). */
  schema?: Schema<unknown>;
  /**
   * The definition, called only for an enabled slot: a lazy slot imports its package here, so a run that does not
   * enable it never loads (or parses) its code. Absent for the plugins the runtime builds at start (the host, the
   * terminal platform, the session server).
   */
  load?: () => Promise<AnyPluginDefinition>;
  /** Keys the runtime fills in from the host config (documented in the reference). */
  filledIn?: string;
  /** What the plugin is for, one line (reference). */
  summary: string;
  /** Whether the runtime cannot run without it (it refuses to start when one is not active). */
  essential?: boolean;
  /**
   * Enabled only when this says so for its section (absent = no section) and the environment; e.g. a platform
   * without a connection, OpenTelemetry without OTEL_* variables.
   */
  enabledWhen?: (
    section: Record<string, unknown> | undefined,
    env: Readonly<Record<string, string | undefined>>,
  ) => boolean;
  /** The secret values in its section (tokens, header values …), redacted from every log line. */
  secretsOf?: (section: Record<string, unknown>) => string[];
  /**
   * An optional first-party plugin whose package this deployment has not installed: no schema, never enabled; a
   * section for it (anything but `false`) is the problem AALIS_RUNTIME_PLUGIN_NOT_INSTALLED (`aalis plugin add <name>`).
   */
  notInstalled?: boolean;
}

/** Whether an import failed because the package `name` itself is not installed (not one of its own imports). */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    (error.message.includes(`'${name}'`) || error.message.includes(`'${name}/`))
  );
}

/** A plugin every run loads: its definition is imported with the runtime. */
function slot(definition: AnyPluginDefinition, rest: Omit<PluginSlot, 'name' | 'schema' | 'load'>): PluginSlot {
  return {
    name: definition.name,
    load: async () => definition,
    ...(definition.config ? { schema: definition.config } : {}),
    ...rest,
  };
}

/**
 * A plugin imported only when its slot is enabled. `schema` is the very object its definition uses (one definition
 * of each; plugin-set.test.ts checks both), taken from a module of the package that does not import the plugin.
 */
function lazySlot(
  name: string,
  schema: Schema<unknown>,
  load: () => Promise<{ default: AnyPluginDefinition }>,
  rest: Omit<PluginSlot, 'name' | 'schema' | 'load'>,
): PluginSlot {
  return { name, schema, load: async () => (await load()).default, ...rest };
}

/** The slot of an optional plugin whose package is not installed: known by its keys, never enabled, nothing to load. */
export function notInstalledSlot({ alias, name, summary }: Pick<PluginSlot, 'alias' | 'name' | 'summary'>): PluginSlot {
  return { alias, name, summary, notInstalled: true, enabledWhen: () => false };
}

/**
 * An optional plugin's slot: its schema and enabling rule from its package's light config module, imported now; when
 * the package is not installed, a slot that says so (same alias and name, so its section is recognised).
 */
export async function optionalSlot<Config>(
  name: string,
  config: () => Promise<Config>,
  from: (module: Config) => { schema: Schema<unknown>; enabledWhen?: PluginSlot['enabledWhen'] },
  load: () => Promise<{ default: AnyPluginDefinition }>,
  rest: Omit<PluginSlot, 'name' | 'schema' | 'load'>,
): Promise<PluginSlot> {
  let module: Config;
  try {
    module = await config();
  } catch (error) {
    if (!isMissingPackage(error, name)) throw error;
    return notInstalledSlot({ alias: rest.alias, name, summary: rest.summary });
  }
  const { schema, enabledWhen } = from(module);
  return lazySlot(name, schema, load, { ...rest, ...(enabledWhen ? { enabledWhen } : {}) });
}

/**
 * Every plugin the runtime knows, in registration order. Asynchronous: the optional plugins' config modules are
 * imported (they are found in the deployment's node_modules, or not).
 */
export async function pluginSlots(): Promise<PluginSlot[]> {
  return Promise.all([
    slot(storagePlugin, {
      alias: 'storage',
      summary: 'The stores: one SQLite database in the data directory, or PostgreSQL (database).',
      filledIn: 'dataDir ← dataDir, database ← database',
      essential: true,
      // A password written under plugins.storage.database is as secret as one in the top-level database key.
      secretsOf: (section) => {
        const password = passwordOf(section.database);
        return password === undefined ? [] : [password];
      },
    }),
    slot(hooksPlugin, { alias: 'hooks', summary: 'Onion middleware chains (agent:*, inbound:*, memory:clear …).' }),
    slot(contributionsPlugin, { alias: 'contributions', summary: 'Contributions to named points (agent:prompt).' }),
    {
      alias: 'host',
      name: HOST_PLUGIN_NAME,
      summary: 'Platform registry, plugin list, persisted service preferences.',
    },
    slot(commandsPlugin, { alias: 'commands', summary: 'Slash commands, /help and /clear.' }),
    slot(authorityPlugin, {
      alias: 'authority',
      summary: 'Owners and user levels.',
      filledIn: 'owners ← owners + the terminal user',
    }),
    slot(sessionManagerPlugin, { alias: 'session-manager', summary: 'Sessions, their kinds and deletion.' }),
    slot(sessionSettingsPlugin, {
      alias: 'session-settings',
      summary: 'Layered per-session settings and /session, /session.set, /session.reset.',
    }),
    slot(toolsPlugin, { alias: 'tools', summary: 'The tool registry and execution.' }),
    slot(memoryPlugin, { alias: 'memory', summary: 'Conversation history in SQLite.' }),
    slot(archivePlugin, {
      alias: 'message-archive',
      summary: 'Archives inputs and replies into the history.',
      filledIn: 'timeZone ← timeZone',
    }),
    slot(personaPlugin, { alias: 'persona', summary: 'Personas from <dataDir>/personas/*.yaml.' }),
    slot(gatewayPlugin, {
      alias: 'gateway',
      summary: 'The inbound pipeline (command → flow → trigger → dispatch).',
      essential: true,
    }),
    // In this order: a muted room's input is context before flow control counts it, and a call over budget is
    // refused before it waits for a slot of the concurrent-call cap.
    slot(mutePlugin, {
      alias: 'mute',
      summary:
        '禁言: /mute [duration], /unmute and mute keywords; she reads but does not speak; shared across processes.',
    }),
    slot(budgetPlugin, {
      alias: 'budget',
      summary:
        'Token or money budgets per person/day, room/day and deployment/month from llm:usage; /budget. Enabled by this section.',
      enabledWhen: (section) => section !== undefined,
    }),
    slot(flowControlPlugin, {
      alias: 'flow-control',
      summary:
        '冷却与限速: cooldowns, token-bucket rate limits, quiet hours, a cap on concurrent model calls with a fair queue. Enabled by this section.',
      enabledWhen: (section) => section !== undefined,
    }),
    lazySlot('@aalis/plugin-llm-openai', openAiConfigSchema, () => import('@aalis/plugin-llm-openai'), {
      alias: 'llm-openai',
      id: 'openai',
      summary: 'Any OpenAI-compatible endpoint; enabled when llm.baseUrl (or this section’s baseUrl) is set.',
      filledIn: 'baseUrl, apiKey, models, modelDefaults ← llm',
      // A key may be given as an extra header (Authorization, api-key …) too (its apiKey is the runtime's own).
      secretsOf: (section) => headerSecrets(headersOf(section)),
    }),
    lazySlot('@aalis/plugin-llm-anthropic', anthropicConfigSchema, () => import('@aalis/plugin-llm-anthropic'), {
      alias: 'llm-anthropic',
      id: 'anthropic',
      summary:
        'Claude through the Anthropic Messages API (prompt caching, thinking budgets); enabled by this section or ANTHROPIC_API_KEY.',
      filledIn: 'apiKey ← ANTHROPIC_API_KEY (when the section has none)',
      secretsOf: (section) => [...stringsAt(section, 'apiKey'), ...headerSecrets(headersOf(section))],
    }),
    slot(offlinePlugin, {
      alias: 'llm-offline',
      id: 'offline',
      summary: 'The offline demo model; enabled when no endpoint is configured.',
    }),
    slot(agentPlugin, {
      alias: 'agent',
      summary: 'The conversation orchestrator (the turn engine).',
      filledIn: 'timeZone ← timeZone',
      essential: true,
    }),
    slot(memorySummaryPlugin, { alias: 'memory-summary', summary: 'Compacts long histories into a summary.' }),
    lazySlot(
      '@aalis/plugin-embedding-openai',
      embeddingOpenAiConfigSchema,
      () => import('@aalis/plugin-embedding-openai'),
      {
        alias: 'embedding-openai',
        summary:
          'Embeddings through an OpenAI-compatible /embeddings endpoint, for long-term memory’s dense recall; enabled when baseUrl is set.',
        enabledWhen: (section) => typeof section?.baseUrl === 'string' && section.baseUrl !== '',
        secretsOf: (section) => stringsAt(section, 'apiKey'),
      },
    ),
    slot(memoryVectorPlugin, {
      alias: 'memory-vector',
      summary:
        'Long-term memory: every archived message indexed (full text), the most relevant past ones its participants could have seen recalled into each turn.',
    }),
    slot(userProfilePlugin, {
      alias: 'user-profile',
      summary:
        'Profiles (档案): facts about each person (memory_remember, memory_forget), given back when that person speaks; an optional extraction pass after turns.',
    }),
    slot(skillsPlugin, {
      alias: 'skills',
      summary:
        'Skills (技能): procedures she saves for reuse (skill_save, skill_search, skill_delete with the person’s confirmation), given back to the turns they fit.',
    }),
    slot(promptBudgetPlugin, { alias: 'prompt-budget', summary: 'The prompt_budget_info self-check tool.' }),
    slot(subtaskPlugin, {
      alias: 'subtask',
      summary: 'Subtasks in child sessions: spawn_subtask, wait_subtasks, stop_subtask, background subtasks.',
    }),
    slot(schedulePlugin, {
      alias: 'schedule',
      summary: 'Reminders and recurring tasks (cron, time zones) fired once each; idle prompts.',
      filledIn: 'timeZone ← timeZone',
    }),
    lazySlot('@aalis/plugin-workflow', workflowConfigSchema, () => import('@aalis/plugin-workflow'), {
      alias: 'workflow',
      summary:
        'Workflows (编排): <dataDir>/workflows/<name>.yaml DAGs of agent, tool, send, wait, condition, map and workflow nodes; workflow_run, /workflow, schedules.',
      filledIn: 'timeZone ← timeZone',
      secretsOf: (section) => stringsAt(section, 'webhookSecret'),
    }),
    optionalSlot(
      '@aalis/plugin-media',
      () => import('@aalis/plugin-media/media-config'),
      (module) => ({ schema: module.mediaConfigSchema }),
      () => import('@aalis/plugin-media'),
      {
        alias: 'media',
        summary:
          'Images for models that cannot see: described by a model with vision (describeModel), cached by content; describe_image. Voice messages transcribed (transcription); voice replies spoken (speech, the voiceReply setting).',
        secretsOf: (section) =>
          [section.transcription, section.speech].flatMap((endpoint) =>
            typeof endpoint === 'object' && endpoint !== null
              ? stringsAt(endpoint as Record<string, unknown>, 'apiKey')
              : [],
          ),
      },
    ),
    optionalSlot(
      '@aalis/plugin-file-reader',
      () => import('@aalis/plugin-file-reader/file-reader-config'),
      (module) => ({ schema: module.fileReaderConfigSchema }),
      () => import('@aalis/plugin-file-reader'),
      {
        alias: 'file-reader',
        summary:
          'Files people send (text in any common encoding, Markdown, CSV, PDF, DOCX, XLSX, PPTX) read for the model; read_uploaded_file.',
      },
    ),
    slot(createBasicToolsPlugin(), { alias: 'basic-tools', summary: 'The current_time and calculator tools.' }),
    optionalSlot(
      '@aalis/plugin-otel',
      () => import('@aalis/plugin-otel/otel-config'),
      // Without OTEL_* variables the plugin would register nothing: it is not even imported then.
      (module) => ({ schema: module.otelConfigSchema, enabledWhen: (_section, env) => module.tracingWanted(env) }),
      () => import('@aalis/plugin-otel'),
      {
        alias: 'otel',
        summary:
          'OpenTelemetry traces (invoke_agent, chat, execute_tool) over OTLP/HTTP; enabled only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER=otlp) is set.',
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-onebot',
      () => import('@aalis/plugin-platform-onebot/onebot-config'),
      (module) => ({ schema: module.onebotConfigSchema, enabledWhen: module.onebotConfigured }),
      () => import('@aalis/plugin-platform-onebot'),
      {
        alias: 'platform-onebot',
        summary:
          'QQ through a OneBot v11 implementation (NapCat, Lagrange, go-cqhttp); enabled when url is set or mode is reverse.',
        secretsOf: (section) => stringsAt(section, 'accessToken'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-telegram',
      () => import('@aalis/plugin-platform-telegram/telegram-config'),
      (module) => ({ schema: module.telegramConfigSchema, enabledWhen: module.telegramConfigured }),
      () => import('@aalis/plugin-platform-telegram'),
      {
        alias: 'platform-telegram',
        summary: 'Telegram through the Bot API (long polling); enabled when token is set.',
        secretsOf: (section) => stringsAt(section, 'token'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-satori',
      () => import('@aalis/plugin-platform-satori/satori-config'),
      (module) => ({ schema: module.satoriConfigSchema, enabledWhen: module.satoriConfigured }),
      () => import('@aalis/plugin-platform-satori'),
      {
        alias: 'platform-satori',
        summary:
          'Every platform a Satori server bridges (Koishi’s adapters, Chronocat …) through the Satori protocol; enabled when endpoint is set.',
        secretsOf: (section) => stringsAt(section, 'token'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-discord',
      () => import('@aalis/plugin-platform-discord/discord-config'),
      (module) => ({ schema: module.discordConfigSchema, enabledWhen: module.discordConfigured }),
      () => import('@aalis/plugin-platform-discord'),
      {
        alias: 'platform-discord',
        summary:
          'Discord through its gateway and REST API (guild channels, threads as sessions, DMs, slash commands); enabled when token is set.',
        secretsOf: (section) => stringsAt(section, 'token'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-lark',
      () => import('@aalis/plugin-platform-lark/lark-config'),
      (module) => ({ schema: module.larkConfigSchema, enabledWhen: module.larkConfigured }),
      () => import('@aalis/plugin-platform-lark'),
      {
        alias: 'platform-lark',
        summary:
          'Feishu and Lark through the long connection (group and private chats, @ mentions, rich text and cards); enabled when appId and appSecret are set.',
        secretsOf: (section) => stringsAt(section, 'appSecret'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-slack',
      () => import('@aalis/plugin-platform-slack/slack-config'),
      (module) => ({ schema: module.slackConfigSchema, enabledWhen: module.slackConfigured }),
      () => import('@aalis/plugin-platform-slack'),
      {
        alias: 'platform-slack',
        summary:
          'Slack through Socket Mode and the Web API (channels, threads as sessions, DMs); enabled when botToken and appToken are set.',
        secretsOf: (section) => [...stringsAt(section, 'botToken'), ...stringsAt(section, 'appToken')],
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-qq',
      () => import('@aalis/plugin-platform-qq/qq-config'),
      (module) => ({ schema: module.qqConfigSchema, enabledWhen: module.qqConfigured }),
      () => import('@aalis/plugin-platform-qq'),
      {
        alias: 'platform-qq',
        summary:
          'QQ’s official bots (QQ Open Platform bot API v2: group @ messages and C2C chats over the gateway); enabled when appId is set.',
        secretsOf: (section) => stringsAt(section, 'clientSecret'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-dingtalk',
      () => import('@aalis/plugin-platform-dingtalk/dingtalk-config'),
      (module) => ({ schema: module.dingtalkConfigSchema, enabledWhen: module.dingtalkConfigured }),
      () => import('@aalis/plugin-platform-dingtalk'),
      {
        alias: 'platform-dingtalk',
        summary:
          'DingTalk robots in Stream mode (dingtalk-stream: group @ and single chats, replies through the session webhook or the API); enabled when clientId is set.',
        secretsOf: (section) => stringsAt(section, 'clientSecret'),
      },
    ),
    optionalSlot(
      '@aalis/plugin-platform-wecom',
      () => import('@aalis/plugin-platform-wecom/wecom-config'),
      (module) => ({ schema: module.wecomConfigSchema, enabledWhen: module.wecomConfigured }),
      () => import('@aalis/plugin-platform-wecom'),
      {
        alias: 'platform-wecom',
        summary:
          'WeCom intelligent bots (企业微信智能机器人, API mode: the encrypted callback, group @ and single chats, stream replies); enabled when token is set.',
        secretsOf: (section) => [...stringsAt(section, 'token'), ...stringsAt(section, 'encodingAESKey')],
      },
    ),
    optionalSlot(
      '@aalis/plugin-mcp',
      () => import('@aalis/plugin-mcp/mcp-config'),
      (module) => ({ schema: module.mcpConfigSchema }),
      () => import('@aalis/plugin-mcp'),
      {
        alias: 'mcp',
        summary:
          'MCP servers’ tools (stdio or HTTP), offered as mcp__<server>__<tool>; enabled when servers are configured.',
        enabledWhen: (section) => Object.keys((section?.servers as object | undefined) ?? {}).length > 0,
        secretsOf: (section) =>
          Object.values((section.servers as Record<string, Record<string, unknown>> | undefined) ?? {})
            .flatMap((server) => [
              ...Object.values((server.headers as Record<string, unknown> | undefined) ?? {}),
              ...Object.values((server.env as Record<string, unknown> | undefined) ?? {}),
            ])
            .filter((value): value is string => typeof value === 'string' && value.length >= 8),
      },
    ),
    {
      alias: 'session-server',
      // SESSION_SERVER_PLUGIN, not imported from the plugin's module (plugin-set.test.ts checks it is the same).
      name: '@aalis/plugin-session-server',
      schema: serverConfigSchema as Schema<unknown>,
      summary:
        'The session server: HTTP + WebSocket session protocol, login links, the WebUI page (`aalis start`, `aalis serve`).',
      filledIn: 'host, port ← webui',
    },
    {
      alias: 'cli',
      name: '@aalis/plugin-cli',
      schema: cliConfigSchema as Schema<unknown>,
      summary: 'The terminal platform (`aalis start`, `aalis chat`).',
      essential: true,
    },
  ]);
}

/** The string at `key` of a section, as a list (empty when unset). */
function stringsAt(section: Record<string, unknown>, key: string): string[] {
  const value = section[key];
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/** A section's extra request headers (the llm providers' `headers`), if it has any. */
function headersOf(section: Record<string, unknown>): Record<string, unknown> | undefined {
  const headers = section.headers;
  return typeof headers === 'object' && headers !== null ? (headers as Record<string, unknown>) : undefined;
}
