// The aalis command in-process: arguments, and configuration files that cannot start.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type MainIo, main } from './cli.js';
import { ENVIRONMENT_KEYS } from './load-config.js';
import { runtimeVersion } from './start-aalis.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function io(cwd: string, env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const value: MainIo = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env,
    cwd,
    onSignal: () => () => {},
    exit: () => {
      throw new Error('exit');
    },
  };
  return { io: value, out: () => out, err: () => err };
}

/** A workspace with a data directory that already holds data, to check that nothing in it is touched. */
function workspace(config: string) {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-main-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'aalis.config.yaml'), config);
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'keep.txt'), 'existing data');
  return dir;
}

function snapshot(dir: string) {
  return readdirSync(join(dir, 'data')).map((name) => [name, statSync(join(dir, 'data', name)).mtimeMs]);
}

describe('aalis --help / --version / bad arguments', () => {
  it('prints the usage and the version', async () => {
    const help = io(tmpdir(), { AALIS_LOCALE: 'en' });
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out()).toContain('Usage: aalis [start]');
    expect(help.out()).toContain('AALIS_LLM_BASE_URL');
    const version = io(tmpdir());
    expect(await main(['--version'], version.io)).toBe(0);
    expect(version.out()).toBe(`${runtimeVersion()}\n`);
  });

  it('--help lists every environment variable the configuration reads, in both locales', async () => {
    for (const locale of ['en', 'zh-CN']) {
      const help = io(tmpdir(), { AALIS_LOCALE: locale });
      expect(await main(['--help'], help.io)).toBe(0);
      for (const variable of Object.keys(ENVIRONMENT_KEYS)) expect(help.out(), locale).toContain(variable);
    }
  });

  it('refuses an unknown argument with status 2', async () => {
    const run = io(tmpdir(), { AALIS_LOCALE: 'en' });
    expect(await main(['chat', '--bogus'], run.io)).toBe(2);
    expect(run.err()).toContain('Unknown argument: --bogus');
  });
});

describe('a configuration that cannot start', () => {
  const cases = [
    {
      name: 'a YAML syntax error',
      config: 'locale: en\nplugins:\n  agent: { systemPrompt: "unfinished\n',
      message: /aalis\.config\.yaml line \d+, column \d+: YAML syntax error: /,
    },
    {
      name: 'a value of the wrong type',
      config: 'locale: en\nllm:\n  maxOutputTokens: many\n',
      message:
        /aalis\.config\.yaml line 3, column 3: llm\.maxOutputTokens expected an integer ≥ 1, received the string "many"/,
    },
    {
      name: 'an unknown plugin',
      config: 'locale: en\nplugins:\n  teleporter: { speed: 9 }\n',
      message: /aalis\.config\.yaml line 3, column 3: plugins\.teleporter is not a known plugin \(known: storage, /,
    },
  ];

  for (const { name, config, message } of cases) {
    it(`${name}: one clear message, status 2, nothing in the data directory touched`, async () => {
      const dir = workspace(config);
      const before = snapshot(dir);
      const run = io(dir, { AALIS_LOCALE: 'en' });
      expect(await main(['chat'], run.io)).toBe(2);
      expect(run.err()).toMatch(message);
      expect(run.err().match(/The configuration has errors/g)).toHaveLength(1);
      expect(run.err()).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.out()).toBe('');
      expect(snapshot(dir)).toEqual(before);
      expect(existsSync(join(dir, 'data', 'logs'))).toBe(false);
    });
  }
});
