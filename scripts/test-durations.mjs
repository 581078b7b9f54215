// A Vitest reporter that writes scripts/test-durations.json, the durations `npm test` orders its files by
// (scripts/test-order.mjs), from the run it watches:
//   npx vitest run --reporter=default --reporter=./scripts/test-durations.mjs
// A file's figure is what it held a worker for: starting its worker's environment, importing it (its collection) and
// running it (hooks included), in ms rounded to 100 so that a new run changes only the lines of files whose time
// really moved. Files the run did not reach keep their figures, files that no longer exist lose theirs. A file that
// failed keeps the larger of its old and new figure: a failure by timeout makes a file longer, one that crashed early
// shorter, and a file thought shorter than it is starts late (the mistake that lengthens a run).
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, sep } from 'node:path';
import { committedDurations, DURATIONS_FILE } from './test-order.mjs';

const root = join(import.meta.dirname, '..');

export default class TestDurationsReporter {
  started = Date.now();
  loads = [];
  timer = undefined;

  onTestRunStart() {
    this.started = Date.now();
    this.loads = [loadavg()[0]];
    this.timer = setInterval(() => this.loads.push(loadavg()[0]), 10_000);
    this.timer.unref();
  }

  onTestRunEnd(testModules, _errors, reason) {
    clearInterval(this.timer);
    if (reason === 'interrupted') {
      process.stdout.write(`${relative(root, DURATIONS_FILE)}: not written, the run was interrupted\n`);
      return;
    }
    const files = Object.fromEntries([...committedDurations()].filter(([path]) => existsSync(join(root, path))));
    let measured = 0;
    for (const module of testModules) {
      const state = module.state();
      if (state !== 'passed' && state !== 'failed') continue;
      const { duration, collectDuration, prepareDuration, environmentSetupDuration } = module.diagnostic();
      const held = duration + collectDuration + prepareDuration + environmentSetupDuration;
      const path = relative(root, module.moduleId).split(sep).join('/');
      const ms = Math.round(held / 100) * 100;
      files[path] = state === 'failed' ? Math.max(ms, files[path] ?? 0) : ms;
      measured++;
    }
    if (measured === 0) return;
    const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const mean = this.loads.reduce((sum, load) => sum + load, 0) / this.loads.length;
    writeFileSync(
      DURATIONS_FILE,
      `${JSON.stringify(
        {
          about:
            'How long each test file held a worker, in ms (written by scripts/test-durations.mjs); npm test starts the longest first.',
          // The run that wrote the file last (it may have measured only some of the files).
          lastRun: {
            at: new Date(this.started).toISOString(),
            seconds: Math.round((Date.now() - this.started) / 1000),
            files: measured,
            meanLoadAverage: Math.round(mean * 10) / 10,
          },
          files: sorted,
        },
        null,
        2,
      )}\n`,
    );
    process.stdout.write(
      `${relative(root, DURATIONS_FILE)}: ${measured} files measured, ${Object.keys(files).length} listed\n`,
    );
  }
}
