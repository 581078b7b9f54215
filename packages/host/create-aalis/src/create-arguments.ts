// Parses `create-aalis [directory] [options]` (see create.usage for the options).
import { isLocale, type Locale, type TextRef, textRef } from '@aalis/core';
import { PLATFORM_NAMES, type PlatformName, TEMPLATE_NAMES, type TemplateName } from './templates.js';

export interface CreateRequest {
  directory?: string;
  template?: TemplateName;
  llm: { baseUrl?: string; model?: string; apiKey?: string };
  platforms: PlatformName[];
  onebotUrl?: string;
  telegramToken?: string;
  install: boolean;
  yes: boolean;
  locale?: Locale;
}

export type ParsedArguments =
  | { kind: 'help'; locale?: Locale }
  | { kind: 'error'; text: TextRef }
  | ({ kind: 'create' } & CreateRequest);

const VALUE_OPTIONS: Record<string, string> = {
  '--template': 'standard',
  '--llm-base-url': 'http://127.0.0.1:11434/v1',
  '--llm-model': 'qwen3:8b',
  '--llm-api-key': 'sk-…',
  '--platform': 'telegram',
  '--onebot-url': 'ws://127.0.0.1:3001',
  '--telegram-token': '123456:ABC…',
  '--lang': 'en',
};

function choice<T extends string>(option: string, value: string, choices: readonly T[]): T | TextRef {
  return (choices as readonly string[]).includes(value)
    ? (value as T)
    : textRef('create.error.badChoice', { option, choices: choices.join(' | '), value });
}

const isText = (value: unknown): value is TextRef => typeof value === 'object' && value !== null && 'key' in value;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function parseCreateArguments(argv: readonly string[]): ParsedArguments {
  const request: CreateRequest = { llm: {}, platforms: [], install: true, yes: false };
  let help = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--help' || argument === '-h') {
      help = true;
      continue;
    }
    if (argument === '--no-install') {
      request.install = false;
      continue;
    }
    if (argument === '--yes' || argument === '-y') {
      request.yes = true;
      continue;
    }
    const [option, inline] = argument.startsWith('--') ? (argument.split(/=(.*)/s) as [string, string?]) : [argument];
    if (option in VALUE_OPTIONS) {
      const value = inline ?? argv[++index];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) {
        return {
          kind: 'error',
          text: textRef('create.error.missingValue', { option, example: VALUE_OPTIONS[option]! }),
        };
      }
      if (option === '--template') {
        const template = choice(option, value, TEMPLATE_NAMES);
        if (isText(template)) return { kind: 'error', text: template };
        request.template = template;
      } else if (option === '--platform') {
        for (const name of value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          const platform = choice(option, name, PLATFORM_NAMES);
          if (isText(platform)) return { kind: 'error', text: platform };
          if (!request.platforms.includes(platform)) request.platforms.push(platform);
        }
      } else if (option === '--lang') {
        if (!isLocale(value))
          return { kind: 'error', text: textRef('create.error.badChoice', { option, choices: 'zh-CN | en', value }) };
        request.locale = value;
      } else if (option === '--llm-base-url' || option === '--onebot-url') {
        if (option === '--llm-base-url' ? !isHttpUrl(value) : !/^wss?:\/\//.test(value)) {
          return {
            kind: 'error',
            text: textRef('create.error.badUrl', {
              option,
              value,
              prefix: option === '--llm-base-url' ? 'http(s)://' : 'ws(s)://',
            }),
          };
        }
        if (option === '--llm-base-url') request.llm.baseUrl = value;
        else request.onebotUrl = value;
      } else if (option === '--llm-model') request.llm.model = value;
      else if (option === '--llm-api-key') request.llm.apiKey = value;
      else if (option === '--telegram-token') request.telegramToken = value;
      continue;
    }
    if (argument.startsWith('-')) return { kind: 'error', text: textRef('create.error.unknownOption', { option }) };
    if (request.directory !== undefined) {
      return { kind: 'error', text: textRef('create.error.extraArgument', { value: argument }) };
    }
    request.directory = argument;
  }
  if (help) return { kind: 'help', ...(request.locale ? { locale: request.locale } : {}) };
  return { kind: 'create', ...request };
}

/** The --lang of a command line, also when another argument is wrong (its error is said in that language). */
export function requestedLocale(argv: readonly string[]): Locale | undefined {
  for (let index = 0; index < argv.length; index++) {
    const [option, inline] = argv[index]!.split(/=(.*)/s) as [string, string?];
    if (option !== '--lang') continue;
    const value = inline ?? argv[index + 1];
    if (isLocale(value)) return value;
  }
  return undefined;
}
