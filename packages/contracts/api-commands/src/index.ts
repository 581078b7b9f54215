// @aalis/api-commands: Contract of the commands service: slash-command registry and parser.
export {
  COMMAND_PARSE_CODE,
  type CommandParseProblem,
  commandErrors,
  commandParseError,
  formatCommandError,
  isCommandParseError,
} from './command-errors.js';
export {
  type CommandContext,
  type CommandDefinition,
  type CommandInfo,
  type CommandReply,
  type CommandResult,
  type CommandsService,
  commands,
} from './commands-service.js';
export { DEFAULT_PAGE_SIZE, type Page, pageFooter, pageFromFlags, paginate } from './paginate.js';
export {
  isCommand,
  isCommandName,
  type ParsedCommand,
  type ParseOptions,
  parseCommand,
  tokenize,
} from './parse-command.js';
