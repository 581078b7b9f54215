// The host's own keys of aalis.config.yaml (everything but the plugin sections, which their plugins' schemas check).
import { type Infer, LOCALES, LOG_LEVELS, s } from '@aalis/core';

const identity = s.object({
  platform: s.string().nonEmpty().describe('Platform id, e.g. "cli", "webui" or an adapter instance id.'),
  userId: s.string().nonEmpty().describe('The account id on that platform.'),
});

export const hostConfigSchema = s
  .object({
    locale: s
      .enum(LOCALES)
      .default('zh-CN')
      .describe('Language of every fixed text she and the host show (zh-CN or en). Environment: AALIS_LOCALE.'),
    dataDir: s
      .string()
      .nonEmpty()
      .default('./data')
      .describe(
        'Data directory, relative to the configuration file: the SQLite database, personas, logs and persisted preferences. Environment: AALIS_DATA_DIR.',
      ),
    database: s
      .string()
      .default('')
      .widget('password')
      .describe(
        'Where every store lives: empty = the SQLite database in the data directory; a postgres:// URL = a PostgreSQL server shared by several aalis processes and hosts (docs/scaling.md); its password is never shown. Environment: AALIS_DATABASE_URL.',
      ),
    logLevel: s
      .enum(LOG_LEVELS)
      .default('info')
      .describe('Level of the file log (<dataDir>/logs/aalis.log). Environment: AALIS_LOG_LEVEL.'),
    consoleLogLevel: s
      .enum([...LOG_LEVELS, 'off'])
      .default('warn')
      .describe('Level of log lines shown in the terminal (standard error for `aalis chat`); "off" shows none.'),
    log: s
      .object({
        maxFileBytes: s
          .number()
          .integer()
          .min(1024)
          .default(5 * 1024 * 1024)
          .describe('The log file is rotated when it would grow past this size.'),
        maxFiles: s
          .number()
          .integer()
          .min(1)
          .default(5)
          .describe('Log files kept, the current one included (aalis.log, aalis.1.log, …).'),
      })
      .describe('Rotation of the file log.'),
    timeZone: s
      .string()
      .default('')
      .describe(
        "IANA time zone of the time annotations the model reads (agent and message archive); empty = this machine's.",
      ),
    owners: s
      .array(identity)
      .default([])
      .describe('Owner accounts, above every level. The terminal user (platform "cli") is always an owner.'),
    llm: s
      .object({
        baseUrl: s
          .string()
          .default('')
          .describe(
            'An OpenAI-compatible API root, an http:// or https:// URL (https://api.openai.com/v1, http://127.0.0.1:11434/v1 …); user:password@ in it is sent as Basic authentication and never shown. Empty = the offline demo model. Environment: AALIS_LLM_BASE_URL.',
          ),
        apiKey: s
          .string()
          .default('')
          .widget('password')
          .describe('Sent as a Bearer token; never logged. Environment: AALIS_LLM_API_KEY.'),
        model: s
          .string()
          .default('')
          .describe(
            'The model id as the server knows it; becomes the default model (openai/<model>). Empty = the first model the server lists. Environment: AALIS_LLM_MODEL.',
          ),
        contextWindow: s.number().integer().min(1).optional().describe('Context window of the model, in tokens.'),
        maxOutputTokens: s.number().integer().min(1).optional().describe('Most tokens one reply may have.'),
      })
      .describe('The model endpoint (the short form of the llm-openai plugin section).'),
    webui: s
      .object({
        host: s
          .string()
          .nonEmpty()
          .optional()
          .describe('Address the session server (WebUI) listens on; default 127.0.0.1. Environment: AALIS_WEBUI_HOST.'),
        port: s
          .number()
          .integer()
          .min(0)
          .max(65535)
          .optional()
          .describe('Its port; default 8420, 0 = any free port. Environment: AALIS_WEBUI_PORT.'),
      })
      .describe(
        'The session server and WebUI (the short form of plugins.session-server): `aalis start` and `aalis serve` run it.',
      ),
    servicePreferences: s
      .record(s.string().nonEmpty())
      .default({})
      .describe(
        'Global service preferences: service → provider instance id or item, e.g. { llm: openai/gpt-4o-mini }.',
      ),
    pluginServicePreferences: s
      .record(s.record(s.string().nonEmpty()))
      .default({})
      .describe('Per-plugin service preferences: plugin instance id → { service → provider or item }.'),
    drainTimeoutMs: s
      .number()
      .integer()
      .min(0)
      .default(10_000)
      .describe('How long shutdown waits for each plugin to finish its work (running turns stop at once).'),
    plugins: s
      .record(s.unknown())
      .default({})
      .describe(
        'Plugin sections by short name or package name; false leaves a plugin out. See the plugin sections below.',
      ),
  })
  .describe('The host: aalis.config.yaml.');

export type HostConfig = Infer<typeof hostConfigSchema>;
