// Parses the aalis command line: [start|chat|serve] [--session <id>] [--config <file>] | webui-link [--account <id>]
// [--config <file>] | plugin add <npm name> | plugin remove <name> | memory reindex [--config <file>] | --help |
// --version.

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'run'; mode: 'interactive' | 'lines' | 'serve'; session?: string; configFile?: string }
  | { kind: 'webui-link'; account?: string; configFile?: string }
  | { kind: 'plugin'; action: 'add' | 'remove'; target: string }
  | { kind: 'memory'; action: 'reindex'; configFile?: string }
  | { kind: 'error'; text: { key: string; params: Record<string, string> } };

export function parseArguments(argv: readonly string[]): CliCommand {
  // `aalis plugin add <npm name>` / `aalis plugin remove <name>`: the deployment's plugins from the registry.
  if (argv[0] === 'plugin') {
    const [, action, target, ...rest] = argv;
    if ((action === 'add' || action === 'remove') && target && !target.startsWith('-') && rest.length === 0) {
      return { kind: 'plugin', action, target };
    }
    return {
      kind: 'error',
      text: { key: 'runtime.cli.badArgument', params: { argument: argv.slice(1).join(' ') || 'plugin' } },
    };
  }
  // `aalis memory reindex [--config <file>]`: long-term memory's vectors rebuilt with the configured model.
  if (argv[0] === 'memory') {
    const [, action, ...rest] = argv;
    const config = /^--config(?:=(.*))?$/.exec(rest[0] ?? '');
    const configFile = config ? (config[1] ?? rest[1]) : undefined;
    const used = config ? (config[1] === undefined ? 2 : 1) : 0;
    if (action === 'reindex' && rest.length === used && (!config || configFile)) {
      return { kind: 'memory', action, ...(configFile ? { configFile } : {}) };
    }
    return {
      kind: 'error',
      text: { key: 'runtime.cli.badArgument', params: { argument: argv.slice(1).join(' ') || 'memory' } },
    };
  }
  let mode: 'interactive' | 'lines' | 'serve' | 'webui-link' = 'interactive';
  let commandSeen = false;
  const options: { session?: string; configFile?: string; account?: string } = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--help' || argument === '-h' || argument === 'help') return { kind: 'help' };
    if (argument === '--version' || argument === '-v' || argument === 'version') return { kind: 'version' };
    const option = /^--(session|config|account)(?:=(.*))?$/.exec(argument);
    if (option) {
      const value = option[2] ?? argv[++index];
      if (value === undefined || value === '') {
        return { kind: 'error', text: { key: 'runtime.cli.missingValue', params: { option: `--${option[1]}` } } };
      }
      if (option[1] === 'session') options.session = value;
      else if (option[1] === 'account') options.account = value;
      else options.configFile = value;
      continue;
    }
    if (
      !commandSeen &&
      (argument === 'start' || argument === 'chat' || argument === 'serve' || argument === 'webui-link')
    ) {
      commandSeen = true;
      mode = argument === 'chat' ? 'lines' : argument === 'start' ? 'interactive' : argument;
      continue;
    }
    return { kind: 'error', text: { key: 'runtime.cli.badArgument', params: { argument } } };
  }
  const { account, ...run } = options;
  if (mode === 'webui-link') {
    return {
      kind: 'webui-link',
      ...(account ? { account } : {}),
      ...(run.configFile ? { configFile: run.configFile } : {}),
    };
  }
  if (account !== undefined) {
    return { kind: 'error', text: { key: 'runtime.cli.badArgument', params: { argument: '--account' } } };
  }
  return { kind: 'run', mode, ...run };
}
