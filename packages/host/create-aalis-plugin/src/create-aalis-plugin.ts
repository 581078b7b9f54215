// The `create-aalis-plugin` command: writes a plugin package that `aalis plugin add` accepts — a default export that
// is a plugin definition, @aalis/core in peerDependencies (the versions it works with) — and a test harness that
// starts it in a real host (@aalis/core's App) with Node's own test runner.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DEFAULT_LOCALE, isLocale, type Locale, type TextRef, translate } from '@aalis/core';
import './plugin-texts.js';

export interface CreatePluginIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** The @aalis/core range a new plugin declares: the release this template belongs to, and its compatible ones. */
export function coreRange(): string {
  const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return `^${version}`;
}

export function pluginFiles(name: string, locale: Locale): Record<string, string> {
  return {
    'package.json': `${JSON.stringify(
      {
        name,
        version: '0.1.0',
        description: `An Aalis plugin (${name}).`,
        license: 'MIT',
        type: 'module',
        engines: { node: '>=20.19' },
        exports: { '.': './index.js' },
        files: ['index.js', 'README.md'],
        keywords: ['aalis', 'aalis-plugin'],
        scripts: { test: 'node --test' },
        // The host provides @aalis/core: the plugin states which versions it works with, and uses the host's copy.
        peerDependencies: { '@aalis/core': coreRange() },
        devDependencies: { '@aalis/core': coreRange() },
      },
      null,
      2,
    )}\n`,
    'index.js': `// @ts-check
// ${name}: an Aalis plugin. The host loads this file's default export, a plugin definition: its name, the services it
// uses (each a handle given to apply, whose use property is the service) and what it does when it starts (apply). See
// @aalis/core's definePlugin.
import { definePlugin, logger } from '@aalis/core';

export default definePlugin({
  name: ${JSON.stringify(name)},
  uses: { log: logger },
  apply({ log }) {
    log.use.info(${JSON.stringify(`${name} is running`)});
  },
});
`,
    'test/plugin.test.js': `// The test harness: the plugin in a real host (@aalis/core's App), started and stopped as Aalis does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App } from '@aalis/core';
import plugin from '../index.js';

test('the plugin starts in a host and stops again', async () => {
  const lines = [];
  const app = new App({ logSinks: [{ level: 'info', write: (record) => lines.push(record) }] });
  app.plugin(plugin);
  await app.start();
  const state = app.states().find((entry) => entry.name === plugin.name);
  assert.equal(state?.state, 'active', JSON.stringify(state));
  assert.ok(lines.some((entry) => JSON.stringify(entry).includes(${JSON.stringify(`${name} is running`)})));
  await app.stop();
});
`,
    'README.md':
      locale === 'zh-CN'
        ? `# ${name}\n\n一个 Aalis 插件。\n\n\`\`\`sh\nnpm install\nnpm test                      # 在真实的宿主（@aalis/core 的 App）里启动它\nnpm pack                      # 打包；发布：npm publish\n\`\`\`\n\n在一个部署（\`npm create aalis\`）里：\`npx aalis plugin add ${name}\`（或打包出的 .tgz 文件），重新启动后生效；设置写在 \`aalis.config.yaml\` 的 \`plugins.${name}\` 下。\n`
        : `# ${name}\n\nAn Aalis plugin.\n\n\`\`\`sh\nnpm install\nnpm test                      # starts it in a real host (@aalis/core's App)\nnpm pack                      # the package; npm publish to publish it\n\`\`\`\n\nIn a deployment (\`npm create aalis\`): \`npx aalis plugin add ${name}\` (or the packed .tgz file); it runs from the next start, its settings under \`plugins.${name}\` in \`aalis.config.yaml\`.\n`,
    '.gitignore': 'node_modules/\n*.tgz\n',
  };
}

export async function main(argv: readonly string[], io: CreatePluginIo = processIo()): Promise<number> {
  let directory: string | undefined;
  let name: string | undefined;
  let locale: Locale | undefined;
  let problem: TextRef | undefined;
  let help = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [option, inline] = argument.split(/=(.*)/s) as [string, string?];
    if (argument === '--help' || argument === '-h') help = true;
    else if (option === '--name') name = inline ?? argv[++index];
    else if (option === '--lang') {
      const value = inline ?? argv[++index];
      if (isLocale(value)) locale = value;
    } else if (argument.startsWith('-')) problem ??= { key: 'createPlugin.error.unknownOption', params: { option } };
    else directory ??= argument;
  }
  const shown: Locale = locale ?? (isLocale(io.env.AALIS_LOCALE) ? io.env.AALIS_LOCALE : DEFAULT_LOCALE);
  const say = (text: TextRef, stream = io.stdout) => stream.write(`${translate(text, shown)}\n`);
  if (help) {
    say({ key: 'createPlugin.usage' });
    return 0;
  }
  if (problem) {
    say(problem, io.stderr);
    return 2;
  }
  if (!directory) {
    say({ key: 'createPlugin.error.noDirectory' }, io.stderr);
    return 2;
  }
  const dir = resolve(io.cwd, directory);
  name ??= basename(dir).toLowerCase();
  if (!PACKAGE_NAME.test(name) || name.length > 214) {
    say({ key: 'createPlugin.error.badName', params: { name } }, io.stderr);
    return 2;
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    say({ key: 'createPlugin.error.notEmpty', params: { dir } }, io.stderr);
    return 2;
  }
  for (const [file, text] of Object.entries(pluginFiles(name, shown))) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  say({ key: 'createPlugin.done', params: { dir: directory, name } });
  return 0;
}

function processIo(): CreatePluginIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
