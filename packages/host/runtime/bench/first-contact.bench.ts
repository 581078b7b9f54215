// npm run bench first-contact — from `git clone` to the first reply in the browser, ≤ 5 minutes: what a new user does
// as the README says (a clone of this repository's HEAD, `npm install && npm start`, the printed link opened in
// Chromium, one message answered by the offline model on the page), each step timed. npm reads its cache as in the
// end-to-end test (fresh-clone.case.ts); the baseline measured in the same run is `git clone` plus `npm ci
// --ignore-scripts` of the same clone (the download-free floor of any install), so the ratio shows what the first
// start and the page add. BENCH_RUNS (default 1) repeats it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { firstContact, REPOSITORY_ROOT, scratchDirectory } from '../src/fresh-clone.case.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const GOAL_MS = 5 * 60_000;
const seconds = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);

for (let run = 1; run <= RUNS; run++) {
  const first = await firstContact({ message: 'hello from the bench', installTimeoutMs: 15 * 60_000 });
  const { cloned, installed, link, page, reply } = first.times;
  await first.stop();
  // The floor: the same clone and an install that only unpacks (no scripts, so no native build, no first start).
  const parent = mkdtempSync(join(scratchDirectory(), 'aalis-bench-floor-'));
  const started = Date.now();
  try {
    execFileSync('git', ['clone', '--quiet', REPOSITORY_ROOT, join(parent, 'aalis')]);
    const install = spawnSync('npm', ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: join(parent, 'aalis'),
      stdio: 'ignore',
    });
    if (install.status !== 0) throw new Error(`npm ci failed (${install.status})`);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  const floor = Date.now() - started;
  console.log(
    `run ${run}: clone ${seconds(cloned)}, npm install done ${seconds(installed)}, login link ${seconds(link)}, page ready ${seconds(page)}, reply on the page ${seconds(reply)} (after git clone began)`,
  );
  console.log(
    `  first start (bundle + WebUI page + banner): ${seconds(link! - installed!)}; floor (git clone + npm ci --ignore-scripts): ${seconds(floor)}; reply ÷ floor ${(reply! / floor).toFixed(2)}×`,
  );
  console.log(
    `  goal: reply within ${seconds(GOAL_MS)}: ${reply! <= GOAL_MS ? 'met' : 'NOT met'} (${((reply! / GOAL_MS) * 100).toFixed(0)} % of it)`,
  );
}
