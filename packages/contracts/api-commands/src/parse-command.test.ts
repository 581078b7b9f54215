// The slash-command parser: names, quotes, escapes, flags, and the coded error for malformed input.
import { AalisError } from '@aalis/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCommand, parseCommand } from './parse-command.js';

function parseError(text: string): AalisError {
  try {
    parseCommand(text);
  } catch (error) {
    if (AalisError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('isCommand', () => {
  it('needs a slash and a well-formed name', () => {
    expect(isCommand('/help')).toBe(true);
    expect(isCommand('  /session.set llm a/b')).toBe(true);
    expect(isCommand('/模型')).toBe(true);
    expect(isCommand('hello')).toBe(false);
    expect(isCommand('/')).toBe(false);
    expect(isCommand('/ help')).toBe(false);
    expect(isCommand('//comment')).toBe(false);
    expect(isCommand('/usr/bin/env')).toBe(false);
    expect(isCommand('/.hidden')).toBe(false);
  });
});

describe('parseCommand', () => {
  it('splits the name, positional arguments and the raw text', () => {
    expect(parseCommand('/session.set  llm   openai/gpt-4o ')).toEqual({
      name: 'session.set',
      args: ['llm', 'openai/gpt-4o'],
      flags: {},
      raw: 'llm   openai/gpt-4o ',
    });
  });

  it('keeps double- and single-quoted arguments whole', () => {
    expect(parseCommand(`/say "hello world" 'it''s' x"y z"`).args).toEqual(['hello world', 'its', 'xy z']);
    expect(parseCommand('/say "" end').args).toEqual(['', 'end']);
  });

  it('resolves backslash escapes outside quotes and \\" \\\\ inside double quotes', () => {
    expect(parseCommand('/say a\\ b \\"q\\"').args).toEqual(['a b', '"q"']);
    expect(parseCommand('/say "a \\"b\\" \\\\ \\n"').args).toEqual(['a "b" \\ \\n']);
  });

  it('keeps single-quoted text literal, backslashes included', () => {
    expect(parseCommand("/path 'C:\\dir\\file'").args).toEqual(['C:\\dir\\file']);
  });

  it('reads -x value, --long value, --long=value and bare flags', () => {
    expect(parseCommand('/model gpt -p 2 --sort name --dry --limit=5').flags).toEqual({
      p: '2',
      sort: 'name',
      dry: true,
      limit: '5',
    });
    expect(parseCommand('/model gpt -p 2').args).toEqual(['gpt']);
  });

  it('a flag followed by another flag or nothing is true', () => {
    expect(parseCommand('/x --a --b -c').flags).toEqual({ a: true, b: true, c: true });
  });

  it('boolean flags never take the next token', () => {
    expect(parseCommand('/x --all keyword', { booleanFlags: ['all'] })).toMatchObject({
      args: ['keyword'],
      flags: { all: true },
    });
  });

  it('negative numbers, a lone dash and quoted dashes stay positional', () => {
    expect(parseCommand('/set temperature -1 - "-p"')).toMatchObject({
      args: ['temperature', '-1', '-', '-p'],
      flags: {},
    });
  });

  it('-- ends flag parsing', () => {
    expect(parseCommand('/say -- -p 2')).toMatchObject({ args: ['-p', '2'], flags: {} });
  });

  it('an unterminated quote is a coded parse error naming the quote and position', () => {
    const error = parseError('/say "hello');
    expect(error.code).toBe('AALIS_COMMAND_PARSE');
    expect(error.details).toMatchObject({ problem: 'unterminatedQuote', quote: '"', position: 6 });
    expect(error.localized('en')).toContain('never closed');
    expect(error.localized('zh-CN')).toContain('没有闭合');
    expect(parseError("/say it's").details).toMatchObject({ quote: "'", position: 8 });
  });

  it('a trailing lone backslash is a coded parse error', () => {
    expect(parseError('/say abc\\').details).toMatchObject({ problem: 'danglingEscape' });
  });

  it('text that is not a command is a coded parse error', () => {
    expect(parseError('hello').details).toMatchObject({ problem: 'notCommand' });
  });

  it('round-trips any list of arguments quoted with double quotes', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 6 }), (args) => {
        const quoted = args.map((arg) => `"${arg.replace(/[\\"]/g, (char) => `\\${char}`)}"`);
        expect(parseCommand(`/echo ${quoted.join(' ')}`).args).toEqual(args);
      }),
    );
  });
});
