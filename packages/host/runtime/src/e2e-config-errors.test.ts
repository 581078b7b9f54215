// End to end: configurations that cannot start, through the real `aalis` command — exit status 2, one message
// naming the problem, and nothing created (no configuration file, no data directory).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, spawnAalis } from './spawn-aalis.case.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-config-'));
  dirs.push(dir);
  return dir;
}

describe('aalis with a configuration that cannot start', () => {
  it(
    'an error from the environment (AALIS_LOG_LEVEL=verbose) creates nothing, like one from the file',
    async () => {
      const cwd = emptyDir();
      const run = await runAalis({
        cwd,
        args: ['chat'],
        input: 'hi\n',
        env: { AALIS_LOCALE: 'en', AALIS_LOG_LEVEL: 'verbose' },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('environment variable AALIS_LOG_LEVEL: logLevel expected one of');
      expect(run.stderr).toContain('the string "verbose"');
      // It says to fix it, not to delete a file that is fine.
      expect(run.stderr.trim().split('\n').at(-1)).toBe('Fix it and run again.');
      expect(run.stdout).toBe('');
      expect(readdirSync(cwd)).toEqual([]); // no aalis.config.yaml, no data directory

      // The same run with a valid environment writes the defaults, as on any first run.
      const fine = await runAalis({ cwd, args: ['chat'], input: '', env: { AALIS_LOCALE: 'en' } });
      expect(fine.code).toBe(0);
      expect(readdirSync(cwd)).toContain('aalis.config.yaml');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'a problem in the file itself keeps the hint that deleting the file brings back the defaults',
    async () => {
      const cwd = emptyDir();
      writeFileSync(join(cwd, 'aalis.config.yaml'), 'locale: en\nlogLevel: loud\n');
      const inFile = await runAalis({ cwd, args: ['chat'], input: 'hi\n' });
      expect(inFile.code).toBe(2);
      expect(inFile.stderr).toContain('delete the file to get a fresh default on the next run');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    '--config naming a file that does not exist is an error naming the file; nothing is created',
    async () => {
      const cwd = emptyDir();
      const run = await runAalis({
        cwd,
        args: ['chat', '--config', 'missing.yaml'],
        input: 'hi\n',
        env: { AALIS_LOCALE: 'en' },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`The configuration file ${join(cwd, 'missing.yaml')} does not exist`);
      // It says to fix it, not to delete a file that is fine.
      expect(run.stderr.trim().split('\n').at(-1)).toBe('Fix it and run again.');
      expect(readdirSync(cwd)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    '--config naming a missing file is the same error for every command (start, serve, webui-link)',
    async () => {
      for (const command of ['start', 'serve', 'webui-link']) {
        const cwd = emptyDir();
        const run = await runAalis({
          cwd,
          args: [command, '--config', 'missing.yaml'],
          env: { AALIS_LOCALE: 'en' },
        });
        expect(run.code, command).toBe(2);
        expect(run.stderr, command).toContain(`The configuration file ${join(cwd, 'missing.yaml')} does not exist`);
        expect(run.stdout, command).toBe('');
        expect(readdirSync(cwd), command).toEqual([]);
      }
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'an invalid baseUrl (not a URL, ftp://, a bad port) is a configuration error at start, exit 2',
    async () => {
      const cases = [
        { value: 'not a url', expected: 'an http:// or https:// URL' },
        { value: 'ftp://models.example.com/v1', expected: 'the only protocols a model endpoint speaks' },
        { value: 'http://127.0.0.1:99999/v1', expected: 'with a valid port (1–65535)' },
        { value: 'https://alice:s3cr3t-pw@models.example.com:70000/v1', expected: 'with a valid port (1–65535)' },
      ];
      for (const { value, expected } of cases) {
        const cwd = emptyDir();
        const run = await runAalis({
          cwd,
          args: ['chat'],
          input: 'hi\n',
          env: { AALIS_LOCALE: 'en', AALIS_LLM_BASE_URL: value },
        });
        expect(run.code, value).toBe(2);
        expect(run.stderr, value).toContain('environment variable AALIS_LLM_BASE_URL: llm.baseUrl expected');
        expect(run.stderr, value).toContain(expected);
        expect(run.stderr, value).not.toContain('s3cr3t-pw');
        expect(readdirSync(cwd), value).toEqual([]);
      }

      const cwd = emptyDir();
      writeFileSync(
        join(cwd, 'aalis.config.yaml'),
        'locale: en\nplugins:\n  llm-openai:\n    baseUrl: ftp://models.example.com/v1\n',
      );
      const run = await runAalis({ cwd, args: ['chat'], input: 'hi\n' });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/aalis\.config\.yaml line 4, column 5: plugins\.llm-openai\.baseUrl expected/);
      expect(readdirSync(cwd)).toEqual(['aalis.config.yaml']);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'a proxy the provider cannot use (HTTPS_PROXY=socks5://…, or its proxy key) and a caFile that cannot be read are configuration errors: exit 2, nothing created',
    async () => {
      const fromEnvironment = emptyDir();
      const run = await runAalis({
        cwd: fromEnvironment,
        args: ['chat'],
        input: 'hi\n',
        env: {
          AALIS_LOCALE: 'en',
          AALIS_LLM_BASE_URL: 'https://models.example.com/v1',
          HTTPS_PROXY: 'socks5://proxy-user:pr0xy-s3cret@127.0.0.1:1080',
        },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('environment variable HTTPS_PROXY: HTTPS_PROXY expected an http:// proxy URL');
      expect(run.stderr).not.toContain('pr0xy-s3cret');
      expect(readdirSync(fromEnvironment)).toEqual([]);

      const inFile = emptyDir();
      writeFileSync(
        join(inFile, 'aalis.config.yaml'),
        'locale: en\nllm: { baseUrl: "https://models.example.com/v1" }\nplugins:\n  llm-openai:\n    proxy: ftp://127.0.0.1:21\n    caFile: ./no-such-ca.pem\n',
      );
      const fromFile = await runAalis({ cwd: inFile, args: ['chat'], input: 'hi\n' });
      expect(fromFile.code).toBe(2);
      expect(fromFile.stderr).toMatch(/line 5, column 5: plugins\.llm-openai\.proxy expected an http:\/\/ proxy URL/);
      expect(fromFile.stderr).toMatch(/line 6, column 5: plugins\.llm-openai\.caFile expected a readable PEM file/);
      expect(fromFile.stderr).toContain('no-such-ca.pem, which cannot be read (ENOENT)');
      expect(readdirSync(inFile)).toEqual(['aalis.config.yaml']);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'a data directory that cannot be made (AALIS_DATA_DIR under /proc) is reported at once instead of hanging',
    async () => {
      const cwd = emptyDir();
      const run = spawnAalis({
        cwd,
        args: ['chat'],
        env: { AALIS_LOCALE: 'en', AALIS_DATA_DIR: '/proc/aalis-no-such/data' },
      });
      run.child.stdin!.end('hi\n');
      // Node's recursive mkdir spins forever on such a path: never leave that running.
      const guard = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
      const code = await run.exited;
      clearTimeout(guard);
      expect(code).toBe(1);
      expect(run.stderr()).toContain('The data directory /proc/aalis-no-such/data cannot be used: ENOENT');
    },
    E2E_TIMEOUT_MS,
  );
});
