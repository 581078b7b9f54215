// @plingjs/browser-testing: test-only helpers for the Pling adapters — headless Chromium through playwright-core,
// fixture pages built with Vite, a static server that proxies /v1 to the scripted model server. Never shipped.

// The playwright types a test touches, so adapter packages need not import playwright-core themselves.
export type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
export {
  type BuildFixturePageOptions,
  buildFixturePage,
  FIXTURE_DEFINES,
  type FixturePage,
} from './build-fixture-page.js';
export { type FixtureBuilds, fixtureBuilds } from './fixture-builds.js';
export {
  CHROMIUM_ARGS,
  chromiumExecutablePath,
  DEFAULT_CHROMIUM_PATH,
  HEADLESS_SHELL_PATH,
  type LaunchChromiumOptions,
  launchChromium,
} from './launch-chromium.js';
export { type OpenedFixture, type OpenFixtureOptions, openFixture } from './open-fixture.js';
export { type FixtureServer, type ServeFixtureOptions, serveFixture } from './serve-fixture.js';
export {
  buildViteApp,
  type OpenViteAppOptions,
  openViteApp,
  startViteApp,
  type ViteApp,
  type ViteAppBuildOptions,
  type ViteAppOptions,
} from './vite-app.js';
