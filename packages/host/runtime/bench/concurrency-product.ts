// What the concurrency bench runs as the product: by default one esbuild bundle of startAalis and every workspace
// package it reaches, built the way the aalis command builds what it runs (bin/fresh-bundle.mjs: CommonJS, no
// keepNames, whitespace and syntax minified), so the figures are those of the code a user runs. Through the tsx
// loader (BENCH_SOURCE=1) every inner function also pays esbuild's keepNames helper (`__name`, about 3 % of a tool
// turn's samples) and nothing else differs.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { agent as agentDescriptor } from '@aalis/api-agent';
// @ts-expect-error: a plain ES module of the bin folder, without declarations
import { BUNDLE_OPTIONS } from '../bin/fresh-bundle.mjs';
import type { startAalis as startAalisFn } from '../src/start-aalis.js';

export interface Product {
  startAalis: typeof startAalisFn;
  agent: typeof agentDescriptor;
  /** How the product was loaded, for the report. */
  form: string;
  /**
   * A CPU or sampling heap profile with the bundle's frames put back at their sources (file and line, through the
   * bundle's source map), so cpuprofile-summary.mjs sorts them by concern as it does a profile of the sources.
   */
  toSources(profile: object): object;
  /** Removes the bundle built for this run. */
  dispose(): void;
}

interface CallFrame {
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface HeapNode {
  callFrame: CallFrame;
  children: HeapNode[];
}

export async function loadProduct(): Promise<Product> {
  if (process.env.BENCH_SOURCE) {
    const [{ startAalis }, { agent }] = await Promise.all([
      import('../src/start-aalis.js'),
      import('@aalis/api-agent'),
    ]);
    return {
      startAalis,
      agent,
      form: 'TypeScript sources through tsx (BENCH_SOURCE=1)',
      toSources: (profile) => profile,
      dispose: () => {},
    };
  }
  const runtimeDir = join(import.meta.dirname, '..');
  // Beside the runtime's other builds, so the external modules resolve from the workspace's node_modules.
  const outDir = join(runtimeDir, 'dist', 'bench-bundle');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `concurrency-${process.pid}.cjs`);
  const { build } = await import('esbuild');
  await build({
    stdin: {
      contents: "export { startAalis } from './src/start-aalis.ts'; export { agent } from '@aalis/api-agent';",
      resolveDir: runtimeDir,
      sourcefile: 'concurrency-product-entry.ts',
      loader: 'ts',
    },
    ...BUNDLE_OPTIONS,
    outfile,
    sourcemap: 'external',
  });
  const loaded = createRequire(import.meta.url)(outfile) as Pick<Product, 'startAalis' | 'agent'>;
  const map = new SourceMap(JSON.parse(readFileSync(`${outfile}.map`, 'utf8')) as SourceMapPayload);
  const bundleUrl = pathToFileURL(outfile).href;
  return {
    ...loaded,
    toSources(profile) {
      const place = (frame: CallFrame) => {
        // A CPU profile names the bundle by URL, a heap profile by path.
        if ((frame.url !== bundleUrl && frame.url !== outfile) || frame.lineNumber < 0) return;
        const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as Partial<SourceMapping>;
        if (entry.originalSource === undefined) return;
        frame.url = new URL(entry.originalSource, bundleUrl).href;
        frame.lineNumber = entry.originalLine ?? frame.lineNumber;
        frame.columnNumber = entry.originalColumn ?? frame.columnNumber;
      };
      // A CPU profile lists its nodes; a sampling heap profile is a tree under `head`.
      const { nodes, head } = profile as { nodes?: { callFrame: CallFrame }[]; head?: HeapNode };
      for (const node of nodes ?? []) place(node.callFrame);
      const pending = head ? [head] : [];
      for (let node = pending.pop(); node; node = pending.pop()) {
        place(node.callFrame);
        pending.push(...node.children);
      }
      return profile;
    },
    form: 'one esbuild bundle, built as the aalis command builds what it runs',
    dispose: () => {
      rmSync(outfile, { force: true });
      rmSync(`${outfile}.map`, { force: true });
    },
  };
}
