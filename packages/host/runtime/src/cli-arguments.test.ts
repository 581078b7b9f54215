import { describe, expect, it } from 'vitest';
import { parseArguments } from './cli-arguments.js';

describe('parseArguments', () => {
  it('runs the interactive chat by default and with start', () => {
    expect(parseArguments([])).toEqual({ kind: 'run', mode: 'interactive' });
    expect(parseArguments(['start', '--session', 'work'])).toEqual({
      kind: 'run',
      mode: 'interactive',
      session: 'work',
    });
  });

  it('runs line-by-line chat with chat, taking --session and --config in either form', () => {
    expect(parseArguments(['chat', '--session=s1', '--config', 'other.yaml'])).toEqual({
      kind: 'run',
      mode: 'lines',
      session: 's1',
      configFile: 'other.yaml',
    });
  });

  it('runs the host headless with serve, and prints a login link with webui-link', () => {
    expect(parseArguments(['serve', '--config', 'a.yaml'])).toEqual({
      kind: 'run',
      mode: 'serve',
      configFile: 'a.yaml',
    });
    expect(parseArguments(['webui-link'])).toEqual({ kind: 'webui-link' });
    expect(parseArguments(['webui-link', '--account=alice'])).toEqual({ kind: 'webui-link', account: 'alice' });
    expect(parseArguments(['start', '--account', 'alice'])).toMatchObject({ kind: 'error' });
  });

  it('answers --help and --version', () => {
    expect(parseArguments(['--help'])).toEqual({ kind: 'help' });
    expect(parseArguments(['chat', '-h'])).toEqual({ kind: 'help' });
    expect(parseArguments(['--version'])).toEqual({ kind: 'version' });
  });

  it('refuses unknown arguments and options without a value', () => {
    expect(parseArguments(['chat', 'start'])).toMatchObject({
      kind: 'error',
      text: { key: 'runtime.cli.badArgument' },
    });
    expect(parseArguments(['--session'])).toMatchObject({ kind: 'error', text: { key: 'runtime.cli.missingValue' } });
    expect(parseArguments(['--verbose'])).toMatchObject({ kind: 'error' });
  });
});
