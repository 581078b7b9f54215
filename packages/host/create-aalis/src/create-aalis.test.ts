import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadConfig, notInstalledSlot, OPTIONAL_PLUGINS, pluginSlots } from '@aalis/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import ownManifest from '../package.json' with { type: 'json' };
import { type CreateIo, main, ownVersion } from './create-aalis.js';

/** The runtime's plugin slots (the optional plugins' config modules imported once). */
const slots = await pluginSlots();

const root = mkdtempSync(join(tmpdir(), 'create-aalis-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let count = 0;

/** Runs the command in a fresh working directory; `answers` reply to its questions as a person at a terminal would. */
async function run(
  argv: string[],
  { answers, install }: { answers?: string[]; install?: (dir: string) => Promise<number> } = {},
) {
  const cwd = join(root, `run-${++count}`);
  mkdirSync(cwd);
  const stdin = Object.assign(new PassThrough(), { isTTY: answers !== undefined });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const pending = [...(answers ?? [])];
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    // A question ends with ": "; the next answer is typed only then (readline drops lines typed before it asks).
    if (out.endsWith(': ') && pending.length > 0) stdin.write(`${pending.shift()}\n`);
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const io: CreateIo = { stdin, stdout, stderr, env: {}, cwd, ...(install ? { install } : {}) };
  const code = await main(argv, io);
  return { code, out, err, cwd };
}

/**
 * The configuration as the runtime reads it in the deployment at `dir`: the optional plugins its package.json does not
 * list are not installed there (in this checkout every package is).
 */
function loaded(dir: string) {
  const dependencies = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies as Record<
    string,
    string
  >;
  const result = loadConfig({
    file: join(dir, 'aalis.config.yaml'),
    env: {},
    slots: slots.map((slot) =>
      (OPTIONAL_PLUGINS as readonly string[]).includes(slot.name) && dependencies[slot.name] === undefined
        ? notInstalledSlot(slot)
        : slot,
    ),
    createIfMissing: false,
    requireFile: true,
    systemTimeZone: () => 'UTC',
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return { config: result.config, enabled: result.config.plugins.map((plugin) => plugin.slot.alias) };
}

describe('npm create aalis, non-interactive', () => {
  it('reads the optional plugins without installing the runtime (one list, @aalis/optional-plugins)', () => {
    expect(Object.keys(ownManifest.dependencies)).not.toContain('@aalis/runtime');
    expect(Object.keys(ownManifest.dependencies)).toContain('@aalis/optional-plugins');
  });

  it.each(['minimal', 'standard', 'full'])(
    'the %s template writes a deployment the runtime accepts, with the WebUI and this release',
    async (template) => {
      const { code, out, cwd } = await run(['my-bot', '--template', template, '--no-install', '--yes', '--lang', 'en']);
      expect(code).toBe(0);
      const dir = join(cwd, 'my-bot');
      expect(readdirSync(dir).sort()).toEqual(['.gitignore', 'README.md', 'aalis.config.yaml', 'package.json']);
      expect(out).toContain('cd my-bot');
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(manifest.name).toBe('my-bot');
      expect(manifest.scripts.start).toBe('aalis start');
      expect(manifest.allowScripts).toEqual({ 'better-sqlite3': true, protobufjs: false });
      // Only the optional plugins the template uses are installed: full all of them, minimal none.
      const optional = {
        minimal: [],
        standard: ['@aalis/plugin-file-reader', '@aalis/plugin-mcp', '@aalis/plugin-media'],
        full: [...OPTIONAL_PLUGINS].sort(),
      }[template]!;
      const range = `^${ownVersion()}`;
      expect(manifest.dependencies).toEqual(
        Object.fromEntries(['@aalis/runtime', '@aalis/plugin-webui', ...optional].map((name) => [name, range])),
      );
      const { config, enabled } = loaded(dir);
      expect(config.provider).toBe('offline');
      expect(enabled).toContain('llm-offline');
      // minimal is the terminal and the WebUI only; the others keep memory, media, files, reminders and subtasks.
      const extras = ['schedule', 'subtask', 'workflow', 'memory-vector', 'media', 'file-reader'];
      const present = enabled.filter((alias) => extras.includes(alias));
      if (template === 'minimal') expect(present).toEqual([]);
      else
        expect(present).toEqual(
          expect.arrayContaining(['schedule', 'subtask', 'memory-vector', 'media', 'file-reader']),
        );
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('offline demo model');
    },
  );

  it('writes the model endpoint and a platform from flags; the key stays in a file only its owner reads', async () => {
    const { code, cwd } = await run([
      'bot',
      '--template=full',
      '--llm-base-url',
      'http://127.0.0.1:11434/v1',
      '--llm-model',
      'qwen3:8b',
      '--llm-api-key',
      'sk-create-test-key',
      '--platform',
      'telegram',
      '--telegram-token',
      '123456:ABCDEF',
      '--no-install',
      '--yes',
    ]);
    expect(code).toBe(0);
    const dir = join(cwd, 'bot');
    const { config, enabled } = loaded(dir);
    expect(config.provider).toBe('openai');
    expect(config.host.llm.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(config.host.llm.model).toBe('qwen3:8b');
    expect(config.secrets).toEqual(expect.arrayContaining(['sk-create-test-key', '123456:ABCDEF']));
    expect(enabled).toEqual(expect.arrayContaining(['llm-openai', 'platform-telegram']));
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies).toHaveProperty([
      '@aalis/plugin-platform-telegram',
    ]);
    expect(statSync(join(dir, 'aalis.config.yaml')).mode & 0o077).toBe(0);
    // The README is in the system's language unless told (no LANG here: Aalis's default, Chinese).
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(
      '模型服务：http://127.0.0.1:11434/v1（模型：qwen3:8b）',
    );
  });

  it('refuses what it cannot do with a coded reason in the reader’s language, and writes nothing', async () => {
    const unknown = await run(['bot', '--tempalte', 'full', '--lang', 'en']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown option --tempalte');
    const badTemplate = await run(['bot', '--template', 'huge', '--lang', 'zh-CN']);
    expect(badTemplate.err).toContain('--template 只能是 minimal | standard | full，收到的是「huge」');
    const noToken = await run(['bot', '--platform', 'telegram', '--yes', '--lang', 'en']);
    expect(noToken.code).toBe(2);
    expect(noToken.err).toContain('Joining telegram needs --telegram-token');
    const noDirectory = await run(['--yes', '--lang', 'en']);
    expect(noDirectory.code).toBe(2);
    expect(noDirectory.err).toContain('No directory given');
    for (const result of [unknown, badTemplate, noToken, noDirectory]) expect(readdirSync(result.cwd)).toEqual([]);
    const occupied = join(root, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'mine');
    const refused = await run([occupied, '--yes', '--lang', 'en']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('exists and is not empty: nothing was changed');
    expect(readdirSync(occupied)).toEqual(['notes.txt']);
  });

  it('installs after writing, and says how to retry when the install fails', async () => {
    const installed: string[] = [];
    const ok = await run(['good', '--yes', '--lang', 'en'], {
      install: async (dir) => {
        installed.push(dir);
        return 0;
      },
    });
    expect(ok.code).toBe(0);
    expect(installed).toEqual([join(ok.cwd, 'good')]);
    expect(ok.out).toContain('Done. Next:\n  cd good\n  npm start');
    const failed = await run(['bad', '--yes', '--lang', 'en'], { install: async () => 1 });
    expect(failed.code).toBe(1);
    expect(failed.err).toContain(
      `npm install failed (exit code 1): the files are written; run npm install again in ${join(failed.cwd, 'bad')}`,
    );
  });
});

describe('npm create aalis at a terminal', () => {
  it('asks for what the flags did not say, again when an answer is not one of the choices', async () => {
    const { code, out, cwd } = await run(['--no-install', '--lang', 'en'], {
      answers: ['asked-bot', 'tiny', 'minimal', 'http://127.0.0.1:8000/v1', 'Qwen/Qwen3-8B', '', 'onebot', ''],
    });
    expect(code).toBe(0);
    expect(out).toContain('Template (minimal / standard / full) [standard]: ');
    expect(out.match(/Template \(minimal/g)).toHaveLength(2);
    const { config, enabled } = loaded(join(cwd, 'asked-bot'));
    expect(config.host.llm.model).toBe('Qwen/Qwen3-8B');
    expect(enabled).toContain('platform-onebot');
    expect(enabled).not.toContain('schedule');
    expect(enabled).not.toContain('memory-vector');
    expect(readFileSync(join(cwd, 'asked-bot', 'aalis.config.yaml'), 'utf8')).toContain('url: "ws://127.0.0.1:3001"');
    // The minimal template with a platform installs that platform's plugin, and no other optional one.
    expect(Object.keys(JSON.parse(readFileSync(join(cwd, 'asked-bot', 'package.json'), 'utf8')).dependencies)).toEqual([
      '@aalis/runtime',
      '@aalis/plugin-webui',
      '@aalis/plugin-platform-onebot',
    ]);
  });
});
