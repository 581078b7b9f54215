// A fixture page as a real Vite app rather than a sealed bundle: a root with `index.html` and a `.env.local`, Vite's
// env loading left on (envDir is the root, as in any app), served either by Vite's dev server (with its `/v1`
// proxy to the model server) or as a production build behind serveFixture. This is what a new user's app does,
// so `import.meta.env.VITE_AGENT_*` reaches the packages exactly as it would there.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OpenAiTestServerOptions, startOpenAiTestServer } from '@aalis/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import type { InlineConfig, ProxyOptions } from 'vite';
import { FIXTURE_DEFINES, type FixturePage } from './build-fixture-page.js';
import type { FixtureBuilds } from './fixture-builds.js';
import type { OpenedFixture } from './open-fixture.js';
import { openRecordedPage } from './open-page.js';
import { serveFixture } from './serve-fixture.js';

export interface ViteAppBuildOptions {
  /** The entry module, an absolute path or a file URL; bare imports resolve from its own location. */
  entry: string | URL;
  /** Written to the app's `.env.local`, one `NAME=value` line each (values must be single-line). */
  envLocal: Record<string, string>;
  title?: string;
}

export interface ViteAppOptions extends ViteAppBuildOptions {
  /** 'build': `vite build`, then the static site; 'dev': Vite's dev server. */
  mode: 'build' | 'dev';
  /** What `/v1` stands for, e.g. `startOpenAiTestServer().url` (…/v1). */
  modelServerUrl: string;
  /**
   * The file's kept builds (`fixtureBuilds()`), when its tests open the same app again: a production build is made
   * once and left to `builds.cleanup()`. Default: built for this app and deleted by `close()`.
   */
  builds?: FixtureBuilds;
}

export interface ViteApp {
  /** The page's address. */
  readonly url: string;
  /** Stops the server and deletes the app directory. */
  close(): Promise<void>;
}

/** The app's root: `.env.local` and `index.html` loading the entry, in a fresh temporary directory. */
async function createApp({ entry, envLocal, title = 'Pling app' }: ViteAppBuildOptions, mode: 'build' | 'dev') {
  const entryPath = typeof entry === 'string' ? entry : fileURLToPath(entry);
  if (!isAbsolute(entryPath) || !existsSync(entryPath)) {
    throw new Error(`startViteApp: the entry must be an existing absolute path or file URL, got "${entryPath}".`);
  }
  const lines = Object.entries(envLocal).map(([name, value]) => {
    if (/[\r\n]/.test(value)) throw new Error(`startViteApp: ${name} must be a single line.`);
    return `${name}=${value}`;
  });
  const root = await mkdtemp(join(tmpdir(), 'pling-vite-app-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    await writeFile(join(root, '.env.local'), `${lines.join('\n')}\n`);
    // The dev server serves the entry through /@fs/; the build reads it by relative path, as an app's src would be.
    const src =
      mode === 'dev' ? `/@fs${entryPath.split(sep).join('/')}` : relative(root, entryPath).split(sep).join('/');
    await writeFile(join(root, 'index.html'), pageHtml(title, src));
  } catch (error) {
    await remove();
    throw error;
  }
  return { root, entryPath, remove };
}

/** Vite, loaded when an app is first started rather than with this package (the WebUI tests use only Chromium). */
const loadVite = () => import('vite');

async function viteConfig(root: string, production: boolean): Promise<InlineConfig> {
  const { defaultClientConditions } = await loadVite();
  return {
    configFile: false,
    root,
    // envDir is not set: Vite reads .env, .env.local, .env.[mode] from the root like in any app.
    mode: production ? 'production' : 'development',
    logLevel: 'silent',
    publicDir: false,
    cacheDir: join(root, '.vite'),
    define: { ...FIXTURE_DEFINES, 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
    resolve: {
      conditions: [
        'source',
        ...defaultClientConditions.map((condition) =>
          condition === 'development|production' ? (production ? 'production' : 'development') : condition,
        ),
      ],
    },
    oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: !production } },
  };
}

/** The app's production build (`vite build` with its `.env.local`): the static site in `dir`; `cleanup()` it. */
export async function buildViteApp(options: ViteAppBuildOptions): Promise<FixturePage> {
  const { root, remove } = await createApp(options, 'build');
  const dir = join(root, 'dist');
  try {
    const { build } = await loadVite();
    await build({
      ...(await viteConfig(root, true)),
      base: './',
      build: { outDir: dir, emptyOutDir: true, minify: false, reportCompressedSize: false },
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, cleanup: remove };
}

/** Creates the app directory, then builds and serves it or starts the dev server; always `close()` it. */
export async function startViteApp({ mode, modelServerUrl, builds, ...app }: ViteAppOptions) {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const step of closers.splice(0).reverse()) await step().catch(() => {});
  };
  try {
    if (mode === 'build') {
      const site = builds ? await builds.buildViteApp(app) : await buildViteApp(app);
      if (!builds) closers.push(() => site.cleanup());
      const server = await serveFixture({ dir: site.dir, modelServerUrl });
      closers.push(() => server.close());
      return { url: server.url, close } satisfies ViteApp;
    }
    const { root, entryPath, remove } = await createApp(app, 'dev');
    closers.push(remove);
    const upstream = new URL(modelServerUrl);
    const { createServer, searchForWorkspaceRoot } = await loadVite();
    const server = await createServer({
      ...(await viteConfig(root, false)),
      optimizeDeps: { entries: [entryPath] },
      server: {
        host: '127.0.0.1',
        port: 0,
        strictPort: false,
        hmr: false,
        ws: false,
        fs: { allow: [root, searchForWorkspaceRoot(dirname(entryPath))] },
        // Vite's own proxy: `/v1/...` → the model server's `/v1/...`, as an app's vite.config would set it.
        proxy: { '/v1': { target: upstream.origin, changeOrigin: true, configure: passOnCuts } },
      },
    });
    closers.push(() => server.close());
    await server.listen();
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('startViteApp: the dev server did not report its address.');
    return { url, close } satisfies ViteApp;
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Vite's proxy pipes the model's answer to the page, and a pipe does not end its destination when the source breaks:
 * an answer cut mid-stream left the page's response open and silent (a cut seen as a hang, no MODEL_STREAM_ERROR).
 * Passing the cut on, as serveFixture and real reverse proxies do, lets the page see what happened.
 */
const passOnCuts: NonNullable<ProxyOptions['configure']> = (proxy) => {
  proxy.on('proxyRes', (answer, _request, response) => {
    answer.on('close', () => {
      if (!answer.complete) response.destroy();
    });
  });
};

function pageHtml(title: string, src: string): string {
  const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return [
    '<!doctype html>',
    '<html lang="zh-CN">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="module" src="${escapeHtml(src)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export interface OpenViteAppOptions extends Omit<ViteAppOptions, 'modelServerUrl'> {
  /** A browser to open the page in (its own context); default a fresh Chromium, closed by `close()`. */
  browser?: Browser;
  /** A context to open the page in (a page of its own, closed by `close()`), instead of a context of its own. */
  context?: BrowserContext;
  modelServer?: OpenAiTestServerOptions;
}

/**
 * openFixture for a real Vite app: the scripted model server, the app (`.env.local` + dev server or build) with
 * `/v1` proxied to it, and a Chromium page on it recording console errors. Always `close()` it.
 */
export async function openViteApp({
  browser,
  context,
  modelServer: modelServerOptions,
  ...app
}: OpenViteAppOptions): Promise<OpenedFixture> {
  const teardown: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const step of teardown.splice(0).reverse()) await step().catch(() => {});
  };
  try {
    const modelServer = await startOpenAiTestServer(modelServerOptions);
    teardown.push(() => modelServer.close());
    const started = await startViteApp({ ...app, modelServerUrl: modelServer.url });
    teardown.push(() => started.close());
    const { page, errors } = await openRecordedPage({ browser, context, url: started.url, teardown });
    return { page, modelServer, url: started.url, errors, close };
  } catch (error) {
    await close();
    throw error;
  }
}
