import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatConfigProblems } from './config-problems.js';
import { DEFAULT_CONFIG_FILE } from './default-config-file.js';
import { ENVIRONMENT_KEYS, type LoadResult, loadConfig } from './load-config.js';
import { pluginSlots } from './plugin-set.js';
import './runtime-texts.js';

/** The runtime's plugin slots (the optional plugins' config modules imported once). */
const slots = await pluginSlots();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(text: string | undefined, env: Record<string, string> = {}): LoadResult & { dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-config-'));
  dirs.push(dir);
  const file = join(dir, 'aalis.config.yaml');
  if (text !== undefined) writeFileSync(file, text);
  return { ...loadConfig({ file, env, slots, systemTimeZone: () => 'Europe/Paris' }), dir };
}

function ok(result: LoadResult) {
  if (!result.ok) throw new Error(formatConfigProblems(result.problems, 'en'));
  return result.config;
}

function aliases(result: LoadResult) {
  return ok(result).plugins.map((plugin) => plugin.slot.alias);
}

describe('loadConfig', () => {
  it('writes the commented defaults on the first run, and they are valid and equal to the defaults', () => {
    const result = load(undefined);
    const config = ok(result);
    expect(config.created).toBe(true);
    expect(readFileSync(config.file, 'utf8')).toBe(DEFAULT_CONFIG_FILE);
    expect(config.host).toMatchObject({
      locale: 'zh-CN',
      dataDir: './data',
      logLevel: 'info',
      timeZone: 'Europe/Paris',
    });
    expect(config.dataDir).toBe(join(result.dir, 'data'));
    expect(config.provider).toBe('offline');
    // Nothing but the configuration file is created.
    expect(existsSync(join(result.dir, 'data'))).toBe(false);
  });

  it('has the default plugin set: the minimal template and more, with the offline model without an endpoint', () => {
    expect(aliases(load(''))).toEqual([
      'storage',
      'hooks',
      'contributions',
      'host',
      'commands',
      'authority',
      'session-manager',
      'session-settings',
      'tools',
      'memory',
      'message-archive',
      'persona',
      'gateway',
      'mute',
      'llm-offline',
      'agent',
      'memory-summary',
      'memory-vector',
      'user-profile',
      'skills',
      'prompt-budget',
      'subtask',
      'schedule',
      'workflow',
      'media',
      'file-reader',
      'basic-tools',
      'session-server',
      'cli',
    ]);
  });

  it('enables budget and flow control by their sections; mute unless it is turned off', () => {
    expect(aliases(load(''))).not.toContain('budget');
    expect(aliases(load(''))).not.toContain('flow-control');
    const configured = aliases(load('plugins:\n  budget: { personPerDay: 1000 }\n  flow-control: {}\n'));
    expect(configured.slice(configured.indexOf('gateway'), configured.indexOf('gateway') + 4)).toEqual([
      'gateway',
      'mute',
      'budget',
      'flow-control',
    ]);
    expect(aliases(load('plugins:\n  mute: false\n'))).not.toContain('mute');
  });

  it('#15.4 enables OpenTelemetry only when an OTEL_* variable asks for traces', () => {
    expect(aliases(load('plugins:\n  otel: { captureContent: true }\n'))).not.toContain('otel');
    expect(aliases(load('', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }))).toContain('otel');
    expect(aliases(load('', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }))).not.toContain('otel');
  });

  it('fills the session server from webui and AALIS_WEBUI_HOST / AALIS_WEBUI_PORT, and makes its owner an owner', () => {
    const fromFile = ok(load('webui:\n  port: 9000\n'));
    const section = (config: typeof fromFile) =>
      config.plugins.find((plugin) => plugin.slot.alias === 'session-server')!.section;
    expect(section(fromFile)).toMatchObject({ port: 9000 });
    const fromEnv = ok(load('webui:\n  port: 9000\n', { AALIS_WEBUI_PORT: '0', AALIS_WEBUI_HOST: '0.0.0.0' }));
    expect(section(fromEnv)).toMatchObject({ port: 0, host: '0.0.0.0' });
    const authority = fromEnv.plugins.find((plugin) => plugin.slot.alias === 'authority')!.section;
    expect(authority.owners).toContainEqual({ platform: 'webui', userId: 'owner' });
    const bad = load('', { AALIS_WEBUI_PORT: 'eighty' });
    expect(bad.ok).toBe(false);
  });

  it('takes the OpenAI-compatible provider when an endpoint is set, filling its section from llm', () => {
    const config = ok(
      load('llm:\n  baseUrl: http://127.0.0.1:1/v1\n  apiKey: sk-file\n  model: m1\n  contextWindow: 8192\n'),
    );
    expect(config.provider).toBe('openai');
    const openai = config.plugins.find((plugin) => plugin.slot.alias === 'llm-openai')!;
    expect(openai.slot.id).toBe('openai');
    expect(openai.section).toEqual({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: 'sk-file',
      models: [{ id: 'm1' }],
      modelDefaults: { contextWindow: 8192 },
    });
    expect(config.plugins.some((plugin) => plugin.slot.alias === 'llm-offline')).toBe(false);
    expect(config.preferences.global.llm).toBe('openai/m1');
    expect(config.secrets).toEqual(['sk-file']);
  });

  it('counts the password of a database URL written under plugins.storage as a secret', () => {
    const config = ok(
      load('plugins:\n  storage:\n    database: postgres://aalis:s3cret-pw@127.0.0.1:5432/aalis\n', {}),
    );
    expect(config.secrets).toContain('s3cret-pw');
    const top = ok(load('database: postgres://aalis:top-pw%21@127.0.0.1:5432/aalis\n', {}));
    expect(top.secrets).toContain('top-pw!');
  });

  it('applies the precedence defaults < file < environment', () => {
    const config = ok(
      load('locale: en\nlogLevel: warn\ndataDir: ./from-file\nllm:\n  model: file-model\n  baseUrl: http://file/v1\n', {
        AALIS_LOG_LEVEL: 'debug',
        AALIS_LLM_BASE_URL: 'http://env/v1',
        AALIS_LLM_API_KEY: 'sk-env',
        AALIS_LLM_MODEL: 'env-model',
        AALIS_DATA_DIR: '/tmp/aalis-env-data',
        AALIS_LOCALE: '',
      }),
    );
    expect(config.host.locale).toBe('en'); // file (the empty variable counts as unset)
    expect(config.host.logLevel).toBe('debug'); // environment
    expect(config.host.consoleLogLevel).toBe('warn'); // default
    expect(config.dataDir).toBe('/tmp/aalis-env-data');
    expect(config.host.llm).toMatchObject({ baseUrl: 'http://env/v1', apiKey: 'sk-env', model: 'env-model' });
    expect(config.preferences.global.llm).toBe('openai/env-model');
  });

  it('fills in owners (with the terminal user), the data directory and the time zone', () => {
    const config = ok(
      load(
        'owners:\n  - { platform: webui, userId: owner }\ntimeZone: Asia/Tokyo\nplugins:\n  cli: { userId: ada }\n  authority:\n    owners: [{ platform: qq, userId: "1" }]\n',
      ),
    );
    const section = (alias: string) => config.plugins.find((plugin) => plugin.slot.alias === alias)!.section;
    expect(section('authority').owners).toEqual([
      { platform: 'qq', userId: '1' },
      { platform: 'webui', userId: 'owner' },
      { platform: 'cli', userId: 'ada' },
    ]);
    expect(section('storage')).toEqual({ dataDir: config.dataDir });
    expect(section('agent').timeZone).toBe('Asia/Tokyo');
    expect(section('message-archive').timeZone).toBe('Asia/Tokyo');
  });

  it('leaves plugins out with false, by short name or package name', () => {
    const names = aliases(
      load('plugins:\n  memory-summary: false\n  "@aalis/plugin-prompt-budget": false\n  agent: true\n'),
    );
    expect(names).not.toContain('memory-summary');
    expect(names).not.toContain('prompt-budget');
    expect(names).toContain('agent');
  });

  it('reports a YAML syntax error with its line and column', () => {
    const result = load('locale: en\nplugins:\n  agent: {systemPrompt: "x"\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ kind: 'syntax', source: { line: expect.any(Number) } });
    expect(formatConfigProblems(result.problems, 'en')).toMatch(
      /aalis\.config\.yaml line \d+, column \d+: YAML syntax error/,
    );
  });

  it('reports a wrong type with file position, path, expected and received', () => {
    const result = load('locale: en\nllm:\n  contextWindow: lots\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      {
        kind: 'issue',
        source: { file: expect.stringMatching(/aalis\.config\.yaml$/), line: 3, column: 3 },
        path: 'llm.contextWindow',
        expected: 'an integer ≥ 1',
        received: 'the string "lots"',
      },
    ]);
  });

  it("reports unknown keys, in the host keys and in a plugin's section", () => {
    const result = load('locale: en\nlogLevl: debug\nplugins:\n  agent:\n    systemPromt: hi\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = formatConfigProblems(result.problems, 'en');
    expect(text).toContain(
      'line 2, column 1: logLevl expected no such field (unknown key), received the string "debug"',
    );
    // The host keys are checked first; the plugin section once they are right.
    const second = load('locale: en\nplugins:\n  agent:\n    systemPromt: hi\n');
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(formatConfigProblems(second.problems, 'en')).toContain(
      'line 4, column 5: plugins.agent.systemPromt expected no such field (unknown key)',
    );
  });

  it('reports an unknown plugin, naming the known ones', () => {
    const result = load('plugins:\n  telepathy: {}\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'unknownPlugin', path: 'plugins.telepathy' })]);
    expect(formatConfigProblems(result.problems, 'en')).toMatch(
      /line 2, column 3: plugins\.telepathy is not a known plugin \(known: storage, hooks, .*cli\)/,
    );
  });

  it('reports a section that is neither an object nor true/false', () => {
    const result = load('locale: en\nplugins:\n  agent: yes please\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({
      path: 'plugins.agent',
      expected: expect.stringContaining('true or false'),
    });
  });

  it('names the environment variable when an overridden value is wrong', () => {
    const result = load('', { AALIS_LOG_LEVEL: 'loud', AALIS_LOCALE: 'fr' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // No valid locale is asked for, so the problems are worded in the default one, zh-CN.
    expect(result.locale).toBe('zh-CN');
    const text = formatConfigProblems(result.problems, result.locale);
    expect(text).toContain('环境变量 AALIS_LOG_LEVEL：logLevel 应为 "trace"');
    expect(text).toContain('环境变量 AALIS_LOCALE：locale 应为 "zh-CN", "en" 之一，实际为 字符串 "fr"');
  });

  it('reports a file that is not a mapping, and an empty file is the defaults', () => {
    const result = load('- a\n- b\n');
    expect(result.ok).toBe(false);
    expect(ok(load('')).host.locale).toBe('zh-CN');
  });

  it('writes its messages in the configured locale', () => {
    const result = load('locale: zh-CN\nllm:\n  contextWindow: lots\n');
    if (result.ok) throw new Error('expected problems');
    expect(result.locale).toBe('zh-CN');
    expect(formatConfigProblems(result.problems, 'zh-CN')).toContain(
      '第 3 行第 3 列：llm.contextWindow 应为 整数 ≥ 1，实际为 字符串 "lots"',
    );
  });
});

describe('required plugins', () => {
  it('cannot be left out', () => {
    const result = load('locale: en\nplugins:\n  agent: false\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({
      path: 'plugins.agent',
      expected: expect.stringContaining('cannot run without'),
    });
  });

  it('words what was expected and received in the locale the file asks for, English fragments never in zh-CN', () => {
    const zh = load('locale: zh-CN\nbogus: 1\nlogLevel: loud\n');
    if (zh.ok) throw new Error('expected problems');
    const plugin = load('locale: zh-CN\nplugins:\n  cli: { reasoning: [1] }\n');
    if (plugin.ok) throw new Error('expected problems');
    const text = `${formatConfigProblems(zh.problems, zh.locale)}\n${formatConfigProblems(plugin.problems, plugin.locale)}`;
    expect(text).toContain('bogus 应为 没有这个键（未知的键），实际为 数 1');
    expect(text).toContain('logLevel 应为 "trace", "debug", "info", "warn", "error" 之一，实际为 字符串 "loud"');
    expect(text).toContain('plugins.cli.reasoning 应为 "collapsed", "expanded", "hidden" 之一，实际为 数组 [1]');
    expect(text).not.toMatch(/one of|the string|no such field|an array|number 1/);
    const en = load('locale: en\nbogus: 1\n');
    if (en.ok) throw new Error('expected problems');
    expect(formatConfigProblems(en.problems, en.locale)).toContain(
      'bogus expected no such field (unknown key), received number 1',
    );
  });

  it('the default file names every environment variable that overrides it', () => {
    for (const variable of Object.keys(ENVIRONMENT_KEYS)) expect(DEFAULT_CONFIG_FILE).toContain(variable);
  });
});
