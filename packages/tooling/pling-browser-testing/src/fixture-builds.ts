// One build per page for the tests of a file that open the same page again and again (each in a fresh model server,
// static server and page): the page is the same, so building it with Vite each time (about half a second of CPU on
// two cores, more on a loaded machine) bought nothing. Fixture pages (buildFixturePage) and production builds of Vite
// apps (buildViteApp: the same `.env.local` gives the same build) are kept alike.
import { fileURLToPath } from 'node:url';
import { type BuildFixturePageOptions, buildFixturePage, type FixturePage } from './build-fixture-page.js';
import { buildViteApp, type ViteAppBuildOptions } from './vite-app.js';

export interface FixtureBuilds {
  /** The page for these options, built on the first call and the same directory after. */
  build(options: BuildFixturePageOptions): Promise<FixturePage>;
  /** The production build of the Vite app for these options (`vite build`), built once like `build`. */
  buildViteApp(options: ViteAppBuildOptions): Promise<FixturePage>;
  /** Deletes every page built here (in `afterAll`). */
  cleanup(): Promise<void>;
}

/** Builds kept for one test file: pass as `openFixture({ builds })`, and `cleanup()` them in `afterAll`. */
export function fixtureBuilds(): FixtureBuilds {
  const built = new Map<string, Promise<FixturePage>>();
  const kept = <Options extends { entry: string | URL }>(
    kind: string,
    options: Options,
    make: (options: Options) => Promise<FixturePage>,
  ) => {
    const entry = typeof options.entry === 'string' ? options.entry : fileURLToPath(options.entry);
    const key = JSON.stringify({ kind, ...options, entry });
    let page = built.get(key);
    if (!page) {
      page = make(options);
      // A failed build is not kept: the next test builds again and reports its own failure.
      page.catch(() => built.delete(key));
      built.set(key, page);
    }
    return page;
  };
  return {
    build: (options) => kept('page', options, buildFixturePage),
    buildViteApp: (options) => kept('vite-app', options, buildViteApp),
    async cleanup() {
      const pages = [...built.values()];
      built.clear();
      for (const page of await Promise.allSettled(pages)) {
        if (page.status === 'fulfilled') await page.value.cleanup();
      }
    },
  };
}
