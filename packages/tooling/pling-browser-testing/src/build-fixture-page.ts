// Bundles one fixture entry module into a static page (index.html plus JS) in a fresh temporary directory, with
// Vite's JS API, so a real browser can load it. Workspace packages resolve to their TypeScript sources.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compile-time constants every fixture build gets unless `define` overrides them: React and Vue read
 * `process.env.NODE_ENV`, which does not exist in a browser, and Vue 3's esm-bundler build expects its feature flags.
 */
export const FIXTURE_DEFINES: Readonly<Record<string, string>> = Object.freeze({
  'process.env.NODE_ENV': '"production"',
  __VUE_OPTIONS_API__: 'true',
  __VUE_PROD_DEVTOOLS__: 'false',
  __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
});

export interface BuildFixturePageOptions {
  /**
   * The entry module (.ts/.tsx/.js), as an absolute path or a file URL, e.g.
   * `new URL('./fixtures/chat.case.ts', import.meta.url)`. Bare imports in it resolve from its own location.
   */
  entry: string | URL;
  /** The page's `<title>`. Default: 'Pling fixture'. */
  title?: string;
  /** Extra compile-time replacements (values are JS source text), merged over `FIXTURE_DEFINES`. */
  define?: Record<string, string>;
}

export interface FixturePage {
  /** The built site: `index.html`, `assets/*.js` and their source maps. */
  readonly dir: string;
  /** Deletes the temporary directory. */
  cleanup(): Promise<void>;
}

/** Builds the page for one fixture entry; call `cleanup()` when the test is done with it. */
export async function buildFixturePage({
  entry,
  title = 'Pling fixture',
  define,
}: BuildFixturePageOptions): Promise<FixturePage> {
  const entryPath = typeof entry === 'string' ? entry : fileURLToPath(entry);
  if (!isAbsolute(entryPath)) {
    throw new Error(
      `buildFixturePage: entry must be an absolute path or a file URL, got "${entryPath}". ` +
        "Use new URL('./fixtures/name.case.ts', import.meta.url).",
    );
  }
  if (!existsSync(entryPath)) throw new Error(`buildFixturePage: the entry ${entryPath} does not exist.`);

  const root = await mkdtemp(join(tmpdir(), 'pling-fixture-'));
  const dir = join(root, 'site');
  const cleanup = () => rm(root, { recursive: true, force: true });
  try {
    // The page is the only build input; its module script points at the entry where it lives, so the entry's
    // imports (`vue`, `@plingjs/vanilla`…) resolve from the entry's directory, not from the temporary one.
    const source = relative(root, entryPath).split(sep).join('/');
    await writeFile(join(root, 'index.html'), pageHtml(title, source));
    const defines = { ...FIXTURE_DEFINES, ...define };
    // Vite decides "production" from the *host* process's NODE_ENV, which Vitest sets to 'test': left alone, that
    // compiles JSX to jsxDEV (undefined in React's production runtime) and picks 'development' exports. The page's
    // own NODE_ENV decides instead.
    const production = defines['process.env.NODE_ENV'] !== '"development"';
    // Vite is loaded when a page is first built, not with this package: the WebUI tests use only its Chromium.
    const { build, defaultClientConditions } = await import('vite');
    await build({
      configFile: false,
      envDir: false,
      root,
      base: './',
      mode: production ? 'production' : 'development',
      logLevel: 'silent',
      publicDir: false,
      cacheDir: join(root, '.vite'),
      define: { 'import.meta.env.DEV': String(!production), 'import.meta.env.PROD': String(production), ...defines },
      resolve: {
        // Setting conditions replaces Vite's defaults, so they are added back after 'source'.
        conditions: [
          'source',
          ...defaultClientConditions.map((condition) =>
            condition === 'development|production' ? (production ? 'production' : 'development') : condition,
          ),
        ],
      },
      oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: !production } },
      build: {
        outDir: dir,
        emptyOutDir: true,
        minify: false,
        sourcemap: true,
        reportCompressedSize: false,
        modulePreload: { polyfill: false },
      },
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { dir, cleanup };
}

function pageHtml(title: string, source: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    // Without an icon Chromium asks for /favicon.ico, and the 404 would show up as a console error.
    '<link rel="icon" href="data:,">',
    '</head>',
    '<body>',
    `<script type="module" src="${escapeHtml(source)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
