// The start banner quotes what the model server said (the model ids it lists): only the CLI's own styling reaches the
// terminal, so a model id carrying escape sequences is shown as text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startOpenAiTestServer } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { startAalis } from './start-aalis.js';

/** Starts Aalis in `dir` with the banner on and stops it: what it wrote (banner and log lines) and the app. */
async function startedBanner(dir: string) {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const aalis = await startAalis({ cwd: dir, env: {}, mode: 'none', banner: true, output, errorOutput: output });
  await aalis.stop();
  return { aalis, text };
}

describe('the start banner', () => {
  it('#11.14 shows a model id listed by the server with its control sequences neutralised', async () => {
    const hostile = '\x1b]0;PWNED\x07\x1b[2J\x1b[?1049h\x9b2J';
    const server = await startOpenAiTestServer({ models: [`model${hostile}`] });
    const dir = mkdtempSync(join(tmpdir(), 'aalis-banner-'));
    try {
      writeFileSync(
        join(dir, 'aalis.config.yaml'),
        `locale: en\nllm:\n  baseUrl: ${server.url}\nplugins:\n  llm-openai: { retry: { maxRetries: 0 } }\n`,
      );
      const { aalis, text } = await startedBanner(dir);
      expect(aalis.model?.id).toBe(`openai/model${hostile}`);
      expect(text).toContain('model: openai/model␛]0;PWNED␇␛[2J␛[?1049h\ufffd2J');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the output.
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });

  it('with no endpoint and the offline model turned off it says nothing will answer, not that the offline model does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-banner-'));
    try {
      writeFileSync(join(dir, 'aalis.config.yaml'), 'locale: zh-CN\nplugins:\n  llm-offline: false\n');
      const { aalis, text } = await startedBanner(dir);
      expect(aalis.model).toBeUndefined();
      expect(text).toContain('模型：（没有可用模型）');
      expect(text).toContain('⚠ 没有可用模型：没有配置模型服务，离线演示模型也关掉了（plugins.llm-offline: false）');
      expect(text).not.toContain('离线演示模型（offline）');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in zh-CN writes its own lines with full-width punctuation: the model, the data directory, the offline note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-banner-'));
    try {
      writeFileSync(join(dir, 'aalis.config.yaml'), 'locale: zh-CN\n');
      const { text } = await startedBanner(dir);
      expect(text).toContain('模型：offline/demo（离线演示模型（offline））');
      expect(text).toContain(' · 数据目录：');
      expect(text).toContain('⚠ 没有配置模型服务：回复来自离线演示模型（offline）。');
      expect(text).not.toMatch(/模型:|数据目录:|会话:| \(离线/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a provider that failed to start is named with its reason, without the misleading "offers no model" hint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-banner-'));
    try {
      // A CA file that can be read but holds no certificate: the provider refuses it when it activates.
      const caFile = join(dir, 'not-a-ca.pem');
      writeFileSync(caFile, 'not a certificate\n');
      writeFileSync(
        join(dir, 'aalis.config.yaml'),
        `locale: en\nllm:\n  baseUrl: http://127.0.0.1:9/v1\n  model: m\nplugins:\n  llm-openai: { caFile: "${caFile}" }\n`,
      );
      const { text } = await startedBanner(dir);
      // Named once: the error already begins with the plugin (was '⚠ Plugin openai failed: Plugin openai: caFile …').
      expect(text).toContain('⚠ Plugin openai: caFile ');
      expect(text).not.toContain('failed: Plugin openai');
      expect(text).toContain('not-a-ca.pem holds no valid PEM certificate');
      expect(text).not.toContain('offers no model');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
