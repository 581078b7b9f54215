// Builds the WebUI page (src/page, Vue 3) with Vite's JS API into dist/page, which the session server serves.
// Workspace packages resolve to their TypeScript sources (the "source" condition), so the page can be built
// from a fresh checkout before anything else is compiled.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The page's sources (index.html, main.ts, components, styles). */
export const PAGE_SOURCE_DIR = join(packageRoot, 'src', 'page');
/** Where the built page goes: index.html and assets/. */
export const PAGE_OUT_DIR = join(packageRoot, 'dist', 'page');

/**
 * Builds the page into `outDir` (default dist/page), replacing what was there. The build goes to a fresh
 * directory first and is moved into place whole, so a server reading `outDir` (or a second process building at
 * the same time) never sees half a page.
 */
export async function buildWebuiPage({ outDir = PAGE_OUT_DIR }: { outDir?: string } = {}): Promise<string> {
  const staging = `${outDir}.building-${process.pid}-${Date.now().toString(36)}`;
  try {
    await buildInto(staging);
    const retired = `${outDir}.old-${process.pid}-${Date.now().toString(36)}`;
    if (existsSync(outDir)) renameSync(outDir, retired);
    renameSync(staging, outDir);
    rmSync(retired, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return outDir;
}

async function buildInto(outDir: string): Promise<void> {
  // Vite is needed only to build, never to serve: load it lazily so importing this package stays cheap.
  const { build, defaultClientConditions } = await import('vite');
  await build({
    configFile: false,
    envDir: false,
    root: PAGE_SOURCE_DIR,
    base: '/',
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    cacheDir: join(packageRoot, 'node_modules', '.vite-webui'),
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    resolve: {
      // Setting conditions replaces Vite's defaults, so they are added back after 'source'.
      conditions: [
        'source',
        ...defaultClientConditions.map((condition) =>
          condition === 'development|production' ? 'production' : condition,
        ),
      ],
    },
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1024,
    },
  });
}

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestChange(path));
    else if (!entry.name.includes('.test.')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/page is missing or older than the page's sources (only checked where the sources exist). */
export function pageIsStale(outDir = PAGE_OUT_DIR): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  if (!existsSync(PAGE_SOURCE_DIR)) return false;
  return newestChange(PAGE_SOURCE_DIR) > statSync(index).mtimeMs;
}
