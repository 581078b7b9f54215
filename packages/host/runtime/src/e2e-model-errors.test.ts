// End to end: what a user of the real `aalis chat` sees when the model server refuses a call — the provider's coded
// error worded in the configured locale (its catalogue has zh-CN and en), with nothing of the key.
import { errorReply, type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, temporaryWorkspace } from './spawn-aalis.case.js';

const KEY = 'sk-right-key-123456';
let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'], apiKey: KEY });
});
afterAll(() => server.close());

const workspaces: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
  server.reset();
});
function workspace(locale: string, apiKey: string) {
  const created = temporaryWorkspace(`locale: ${locale}
llm:
  baseUrl: ${server.url}
  apiKey: ${apiKey}
  model: test-model
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
`);
  workspaces.push(created);
  return created.dir;
}

describe('aalis chat: model errors in the user’s locale', () => {
  it(
    'a refused key is reported in zh-CN when the locale is zh-CN (the provider’s own wording, no English)',
    async () => {
      const run = await runAalis({ cwd: workspace('zh-CN', 'sk-wrong-key-999999'), args: ['chat'], input: '你好\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('[错误] 模型服务 openai');
      expect(run.stdout).toContain('拒绝了凭据（HTTP 401）');
      expect(run.stdout).toContain('请检查插件实例 openai 配置里的 apiKey');
      expect(run.stdout).not.toContain('refused the credentials');
      expect(run.stdout + run.stderr).not.toContain('sk-wrong-key-999999');
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'a server error is reported in English when the locale is en',
    async () => {
      server.enqueue(errorReply(500, 'upstream exploded'));
      const run = await runAalis({ cwd: workspace('en', KEY), args: ['chat'], input: 'hello\n' });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /^\[Error\] openai failed to answer for openai\/test-model \(HTTP 500\): upstream exploded/,
      );
    },
    E2E_TIMEOUT_MS,
  );
});
