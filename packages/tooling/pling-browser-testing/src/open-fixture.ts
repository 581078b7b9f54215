// The one call a browser test needs: a scripted model server, the fixture page built and served with /v1 proxied
// to it, and a Chromium page on it that records console errors and uncaught exceptions.
import { type OpenAiTestServer, type OpenAiTestServerOptions, startOpenAiTestServer } from '@aalis/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type BuildFixturePageOptions, buildFixturePage } from './build-fixture-page.js';
import type { FixtureBuilds } from './fixture-builds.js';
import { openRecordedPage } from './open-page.js';
import { serveFixture } from './serve-fixture.js';

export interface OpenFixtureOptions extends BuildFixturePageOptions {
  /**
   * A browser to open the page in (e.g. one per test file, from `launchChromium()` in `beforeAll`); the fixture
   * gets its own context in it and leaves the browser open. Default: a fresh Chromium, closed by `close()`.
   */
  browser?: Browser;
  /**
   * A context to open the page in (e.g. one per test file): the fixture gets a page of its own in it, closed by
   * `close()`, and leaves the context open. Each fixture is served on a port of its own, so its page is an origin
   * of its own too: storage is not shared with the other fixtures' pages. Default: a context of its own.
   */
  context?: BrowserContext;
  /** Options for the scripted model server (`models`, `apiKey`). */
  modelServer?: OpenAiTestServerOptions;
  /**
   * The file's kept builds (`fixtureBuilds()`), when its tests open the same page again: the page is built once and
   * left to `builds.cleanup()`. Default: built for this fixture and deleted by `close()`.
   */
  builds?: FixtureBuilds;
}

export interface OpenedFixture {
  /** The loaded page (the entry module has run). */
  readonly page: Page;
  /** The scripted model server behind `/v1`: `enqueue(...)` replies, read `chatBodies()`. */
  readonly modelServer: OpenAiTestServer;
  /** The page's address. */
  readonly url: string;
  /**
   * `console.error` messages and uncaught exceptions, in order; tests assert it stays empty. Chromium also logs
   * "Failed to load resource" here for an HTTP error status or a dropped connection (not for an aborted fetch),
   * so a test of an error reply expects that entry.
   */
  readonly errors: string[];
  /** Tears everything down in reverse order: page, browser (when launched here), server, build, model server. */
  close(): Promise<void>;
}

/** Opens a fixture page in Chromium; always `close()` it (in `afterEach`/`finally`), even when the test fails. */
export async function openFixture({
  browser,
  context,
  modelServer: modelServerOptions,
  builds,
  ...build
}: OpenFixtureOptions): Promise<OpenedFixture> {
  const teardown: Array<() => Promise<unknown>> = [];
  const close = async () => {
    let failure: unknown;
    for (const step of teardown.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  };
  try {
    const modelServer = await startOpenAiTestServer(modelServerOptions);
    teardown.push(() => modelServer.close());
    const site = builds ? await builds.build(build) : await buildFixturePage(build);
    if (!builds) teardown.push(() => site.cleanup());
    const server = await serveFixture({ dir: site.dir, modelServerUrl: modelServer.url });
    teardown.push(() => server.close());
    const { page, errors } = await openRecordedPage({ browser, context, url: server.url, teardown });
    return { page, modelServer, url: server.url, errors, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
