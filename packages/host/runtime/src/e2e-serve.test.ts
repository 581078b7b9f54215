// `aalis serve` and `aalis webui-link` as processes: the banner's login link logs in once, a second process prints
// a fresh link that works, the WebUI answers through the protocol, and a signal ends the server cleanly.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAalis, serverConfig, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

let model: OpenAiTestServer;
beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['test-model'] });
});
afterAll(() => model.close());

const LINK = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9._%-]+/;

describe('aalis serve', () => {
  it('prints a one-time login link, serves the session protocol headless, and webui-link mints a fresh link', async () => {
    const workspace = temporaryWorkspace(serverConfig(model.url));
    const serve = spawnAalis({ cwd: workspace.dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
    try {
      const link = await waitFor(() => LINK.exec(serve.stdout())?.[0], { what: () => `a link in ${serve.stdout()}` });
      const base = new URL(link).origin;
      const first = await fetch(link, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const me = await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json();
      expect(me).toMatchObject({ ok: true, account: { userId: 'owner', owner: true }, protocol: 1 });
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
      // No terminal chat: standard input is not read as messages.
      expect(serve.stdout()).not.toContain('›');

      const printed = await runAalis({ cwd: workspace.dir, args: ['webui-link'] });
      expect(printed.code).toBe(0);
      const fresh = LINK.exec(printed.stdout)?.[0];
      expect(fresh).toBeDefined();
      expect(new URL(fresh!).origin).toBe(base);
      expect((await fetch(fresh!, { redirect: 'manual' })).status).toBe(303);
      const unknown = await runAalis({ cwd: workspace.dir, args: ['webui-link', '--account', 'mallory'] });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('mallory');

      // Headless, the session server is essential: a second serve on the same port refuses to run.
      const clash = await runAalis({
        cwd: workspace.dir,
        args: ['serve'],
        env: { AALIS_WEBUI_PORT: new URL(base).port },
      });
      expect(clash.code).toBe(1);
      expect(clash.stderr).toContain('EADDRINUSE');

      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      expect(existsSync(join(workspace.dir, 'data', 'webui', 'server.json'))).toBe(false);
      const offline = await runAalis({ cwd: workspace.dir, args: ['webui-link'] });
      expect(offline.code).toBe(0);
      expect(offline.stderr).toMatch(/not running|没有运行/);
    } finally {
      // A failed assertion must not leave the server running.
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
      workspace.remove();
    }
  }, 90_000);
});
