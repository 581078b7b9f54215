// Parses the aalis command line: [start|chat] [--session <id>] [--config <file>] | --help | --version.

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; mode: 'interactive' | 'lines'; session?: string; configFile?: string }
  | { kind: 'error'; text: { key: string; params: Record<string, string> } };

export function parseArguments(argv: readonly string[]): CliCommand {
  let mode: 'interactive' | 'lines' = 'interactive';
  let commandSeen = false;
  const options: { session?: string; configFile?: string } = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--help' || argument === '-h' || argument === 'help') return { kind: 'help' };
    if (argument === '--version' || argument === '-v' || argument === 'version') return { kind: 'version' };
    const option = /^--(session|config)(?:=(.*))?$/.exec(argument);
    if (option) {
      const value = option[2] ?? argv[++index];
      if (value === undefined || value === '') {
        return { kind: 'error', text: { key: 'runtime.cli.missingValue', params: { option: `--${option[1]}` } } };
      }
      if (option[1] === 'session') options.session = value;
      else options.configFile = value;
      continue;
    }
    if (!commandSeen && (argument === 'start' || argument === 'chat')) {
      commandSeen = true;
      mode = argument === 'chat' ? 'lines' : 'interactive';
      continue;
    }
    return { kind: 'error', text: { key: 'runtime.cli.badArgument', params: { argument } } };
  }
  return { kind: 'run', mode, ...options };
}
