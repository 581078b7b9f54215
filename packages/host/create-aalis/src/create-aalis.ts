// The `create-aalis` command: asks what the flags did not say (when standard input is a terminal and --yes is not
// given), writes the deployment's files, installs it and says how to start it.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { AalisError, DEFAULT_LOCALE, isLocale, type Locale, type TextRef, translate } from '@aalis/core';
import { type CreateRequest, isHttpUrl, parseCreateArguments, requestedLocale } from './create-arguments.js';
import { installProject, writeProject } from './create-project.js';
import {
  PLATFORM_NAMES,
  type PlatformName,
  type ProjectOptions,
  packageNameFor,
  TEMPLATE_NAMES,
  type TemplateName,
} from './templates.js';

export interface CreateIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Installs the written deployment; resolves with the exit code (npm install by default). */
  install?: (dir: string) => Promise<number>;
}

/** This package's version: the Aalis version a new deployment installs (the packages are released together). */
export function ownVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** --lang, else AALIS_LOCALE, else the system's language when it is Chinese or English, else Aalis's default. */
function localeOf(requested: Locale | undefined, env: Record<string, string | undefined>): Locale {
  if (requested) return requested;
  if (isLocale(env.AALIS_LOCALE)) return env.AALIS_LOCALE;
  const system = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  if (system.startsWith('zh')) return 'zh-CN';
  if (system.startsWith('en')) return 'en';
  return DEFAULT_LOCALE;
}

export async function main(argv: readonly string[], io: CreateIo = processIo()): Promise<number> {
  const parsed = parseCreateArguments(argv);
  const locale = localeOf(requestedLocale(argv), io.env);
  const say = (text: TextRef | string, stream = io.stdout) => stream.write(`${translate(text, locale)}\n`);
  if (parsed.kind === 'help') {
    say({ key: 'create.usage' });
    return 0;
  }
  if (parsed.kind === 'error') {
    say(parsed.text, io.stderr);
    return 2;
  }
  const interactive = !parsed.yes && io.stdin.isTTY === true;
  let options: { dir: string; project: ProjectOptions };
  try {
    options = interactive ? await ask(parsed, io, locale) : decide(parsed, io.cwd, locale);
  } catch (error) {
    if (!AalisError.isInstance(error)) throw error;
    say(error.text, io.stderr);
    return 2;
  }
  try {
    writeProject(options.dir, options.project);
  } catch (error) {
    if (!AalisError.isInstance(error)) throw error;
    say(error.text, io.stderr);
    return 2;
  }
  say({ key: 'create.done.written', params: { dir: options.dir } });
  const shown = parsed.directory ?? options.dir;
  if (!parsed.install) {
    say({ key: 'create.done.nextInstall', params: { dir: shown } });
    return 0;
  }
  say({ key: 'create.done.installing' });
  const code = await (io.install ?? ((dir) => installProject(dir, { ...process.env, ...io.env })))(options.dir);
  if (code !== 0) {
    say({ key: 'create.error.installFailed', params: { code, dir: options.dir } }, io.stderr);
    return 1;
  }
  say({ key: 'create.done.next', params: { dir: shown } });
  return 0;
}

/** Everything from the flags (non-interactive): what is missing takes its default, or is an error. */
function decide(request: CreateRequest, cwd: string, locale: Locale): { dir: string; project: ProjectOptions } {
  if (!request.directory) throw new AalisError('CREATE_AALIS_NO_DIRECTORY', { key: 'create.error.noDirectory' });
  const platforms: ProjectOptions['platforms'] = {};
  for (const platform of request.platforms) {
    if (platform === 'onebot') {
      if (!request.onebotUrl) throw platformError(platform, '--onebot-url');
      platforms.onebot = { url: request.onebotUrl };
    } else {
      if (!request.telegramToken) throw platformError(platform, '--telegram-token');
      platforms.telegram = { token: request.telegramToken };
    }
  }
  const dir = resolve(cwd, request.directory);
  return {
    dir,
    project: {
      name: packageNameFor(basename(dir)),
      template: request.template ?? 'standard',
      llm: request.llm,
      platforms,
      locale,
      version: ownVersion(),
    },
  };
}

function platformError(platform: PlatformName, option: string): AalisError {
  return new AalisError('CREATE_AALIS_PLATFORM_NEEDS', {
    key: 'create.error.platformNeeds',
    params: { platform, option },
  });
}

/** Asks for what the flags left open, one question a line; Enter keeps the default shown in brackets. */
async function ask(
  request: CreateRequest,
  io: CreateIo,
  locale: Locale,
): Promise<{ dir: string; project: ProjectOptions }> {
  const lines = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream });
  const question = async (key: string, fallback = '') => {
    const answer = (await lines.question(`${translate({ key }, locale)}${fallback ? ` [${fallback}]` : ''}: `)).trim();
    return answer === '' ? fallback : answer;
  };
  try {
    const filled: CreateRequest = { ...request, llm: { ...request.llm }, platforms: [...request.platforms] };
    while (!filled.directory) filled.directory = (await question('create.ask.directory', 'my-bot')) || undefined;
    while (!filled.template) {
      const answer = await question('create.ask.template', 'standard');
      if ((TEMPLATE_NAMES as readonly string[]).includes(answer)) filled.template = answer as TemplateName;
    }
    if (!filled.llm.baseUrl) {
      for (;;) {
        const answer = await question('create.ask.baseUrl');
        if (answer === '' || isHttpUrl(answer)) {
          if (answer !== '') filled.llm.baseUrl = answer;
          break;
        }
      }
    }
    if (filled.llm.baseUrl) {
      filled.llm.model ||= (await question('create.ask.model')) || undefined;
      filled.llm.apiKey ||= (await question('create.ask.apiKey')) || undefined;
    }
    if (filled.platforms.length === 0) {
      const answer = await question('create.ask.platforms');
      for (const name of answer.split(/[,\s]+/).filter(Boolean)) {
        if ((PLATFORM_NAMES as readonly string[]).includes(name) && !filled.platforms.includes(name as PlatformName)) {
          filled.platforms.push(name as PlatformName);
        }
      }
    }
    if (filled.platforms.includes('onebot')) {
      while (!filled.onebotUrl || !/^wss?:\/\//.test(filled.onebotUrl)) {
        filled.onebotUrl = await question('create.ask.onebotUrl', 'ws://127.0.0.1:3001');
      }
    }
    if (filled.platforms.includes('telegram')) {
      while (!filled.telegramToken) filled.telegramToken = await question('create.ask.telegramToken');
    }
    return decide(filled, io.cwd, locale);
  } finally {
    lines.close();
  }
}

function processIo(): CreateIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
