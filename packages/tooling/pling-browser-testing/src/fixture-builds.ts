// One build per fixture page for the tests of a file that open the same page again and again (each in a fresh model
// server, static server and browser context): the page is the same, so building it with Vite each time (about half a
// second of CPU on two cores, more on a loaded machine) bought nothing.
import { fileURLToPath } from 'node:url';
import { type BuildFixturePageOptions, buildFixturePage, type FixturePage } from './build-fixture-page.js';

export interface FixtureBuilds {
  /** The page for these options, built on the first call and the same directory after. */
  build(options: BuildFixturePageOptions): Promise<FixturePage>;
  /** Deletes every page built here (in `afterAll`). */
  cleanup(): Promise<void>;
}

/** Builds kept for one test file: pass as `openFixture({ builds })`, and `cleanup()` them in `afterAll`. */
export function fixtureBuilds(): FixtureBuilds {
  const built = new Map<string, Promise<FixturePage>>();
  return {
    build(options) {
      const entry = typeof options.entry === 'string' ? options.entry : fileURLToPath(options.entry);
      const key = JSON.stringify({ ...options, entry });
      let page = built.get(key);
      if (!page) {
        page = buildFixturePage(options);
        // A failed build is not kept: the next test builds again and reports its own failure.
        page.catch(() => built.delete(key));
        built.set(key, page);
      }
      return page;
    },
    async cleanup() {
      const pages = [...built.values()];
      built.clear();
      for (const page of await Promise.allSettled(pages)) {
        if (page.status === 'fulfilled') await page.value.cleanup();
      }
    },
  };
}
