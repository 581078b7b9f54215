// npm run bench install — a deployment installed like any npm application, from the packed packages: every workspace
// package packed (`npm pack`, what `npm publish` would upload; run `npm run build` first), then for each template
// `create-aalis <dir> --template <t>` (its files), the deployment's dependencies pointed at those tarballs (package
// `overrides`: the stand-in for a registry, since none is reachable here but npm's), `npm install` (third-party
// packages from npm's cache), and a first reply through `aalis chat`. Checks each install prints no `npm warn` and the
// reply comes from the installed packages' dist/ (no sources in a tarball), and times each step. The goal (issue:
// from an empty directory to a running bot in 3 minutes) is the reference; the minimal template is the baseline the
// others are compared with. BENCH_TEMPLATES=minimal,full picks templates.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDirectory } from '../../runtime/src/fresh-clone.case.js';
import { main } from '../src/create-aalis.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const GOAL_MS = 3 * 60_000;
const templates = (process.env.BENCH_TEMPLATES ?? 'minimal,standard,full').split(',');
if (!existsSync(join(root, 'packages', 'host', 'runtime', 'dist', 'cli.js'))) {
  console.error('The packages are not built: run npm run build first (a tarball holds dist/ only).');
  process.exit(1);
}
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('AALIS_') && !key.startsWith('npm_')),
);
const work = mkdtempSync(join(scratchDirectory(), 'aalis-bench-install-'));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
try {
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  let started = Date.now();
  execFileSync('npm', ['pack', '--workspaces', '--ignore-scripts', '--pack-destination', tarballs], {
    cwd: root,
    stdio: 'ignore',
  });
  const packMs = Date.now() - started;
  const overrides: Record<string, string> = {};
  for (const file of readdirSync(tarballs)) {
    const match = /^(aalis|plingjs)-(.+)-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/.exec(file);
    if (match) overrides[`@${match[1]}/${match[2]}`] = `file:${join(tarballs, file)}`;
  }
  console.log(`packed ${readdirSync(tarballs).length} packages in ${seconds(packMs)}`);
  const rows: Array<{ template: string; install: number; reply: number }> = [];
  for (const template of templates) {
    const dir = join(work, `bot-${template}`);
    const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
    started = Date.now();
    const code = await main([dir, '--template', template, '--no-install', '--yes', '--lang', 'en'], {
      stdin: process.stdin,
      stdout: quiet,
      stderr: process.stderr,
      env,
      cwd: work,
    });
    if (code !== 0) throw new Error(`create-aalis exited ${code}`);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies)) manifest.dependencies[name] = overrides[name];
    manifest.overrides = overrides;
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    if (install.status !== 0) throw new Error(`npm install failed:\n${install.stdout}\n${install.stderr}`);
    if (/npm warn/i.test(install.stderr)) throw new Error(`npm install warned:\n${install.stderr}`);
    const installMs = Date.now() - started;
    if (existsSync(join(dir, 'node_modules', '@aalis', 'runtime', 'src'))) throw new Error('a tarball holds sources');
    const chat = spawnSync('npx', ['aalis', 'chat'], {
      cwd: dir,
      env: { ...env, AALIS_WEBUI_PORT: '0' },
      input: 'hello from the install bench\n',
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (chat.status !== 0 || !chat.stdout.includes('hello from the install bench')) {
      throw new Error(`aalis chat gave no reply (${chat.status}):\n${chat.stdout}\n${chat.stderr}`);
    }
    rows.push({ template, install: installMs, reply: Date.now() - started });
  }
  const baseline = rows.find((row) => row.template === 'minimal') ?? rows[0]!;
  console.log('| template | files + npm install | first reply (aalis chat) | × minimal | of the 3-minute goal |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(
      `| ${row.template} | ${seconds(row.install)} | ${seconds(row.reply)} | ${(row.reply / baseline.reply).toFixed(2)}× | ${((row.reply / GOAL_MS) * 100).toFixed(0)} % |`,
    );
  }
  console.log(
    'npm read third-party packages from its cache (prefer-offline); a first install on a machine downloads them.',
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
