// Where the session server finds the built page: dist/page, built first when it is missing or older than the
// sources (a fresh `npm install && npm start` runs from sources with no build step). Concurrent callers share
// one build.
import { buildWebuiPage, PAGE_OUT_DIR, pageIsStale } from './build-page.js';

let building: Promise<string> | undefined;

/** The absolute path of the built page (index.html, assets/), building it when needed. */
export async function webuiPageDir(): Promise<string> {
  if (!pageIsStale()) return PAGE_OUT_DIR;
  building ??= buildWebuiPage().finally(() => {
    building = undefined;
  });
  return building;
}
