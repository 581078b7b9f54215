// The commands service contract: a registry of slash commands, each with the level it needs, and their execution.
import type { Caller, RequiredLevel } from '@aalis/api-authority';
import {
  type Disposer,
  defineService,
  type RegistrationOwner,
  type ServiceDescriptor,
  type TextRef,
} from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import type { ParsedCommand, ParseOptions } from './parse-command.js';

/** What a handler returns: the reply (translated when a TextRef), or nothing for no reply. */
export type CommandReply = string | TextRef | undefined;

export interface CommandContext {
  sessionId: string;
  platform: string;
  message: IncomingMessage;
  /** Who runs the command (authority.callerOf of the message's authorised identity). */
  caller: Caller;
  args: string[];
  flags: Record<string, string | true>;
  /** The text after the command name, unparsed. */
  raw: string;
  /** Renders a text in the app's locale. */
  t(text: string | TextRef): string;
}

export interface CommandDefinition {
  /** Without the slash: 'model', 'session.set'. Letters, digits, '_', '-', '.'. */
  name: string;
  description: TextRef | string;
  /** Arguments shown by /help after the name, e.g. '<key> <value>'. */
  usage?: TextRef | string;
  /** Needed to run (and to be listed by /help); default 0 = everyone. */
  level?: RequiredLevel;
  /** Flags of this command that never take a value (see ParseOptions). */
  booleanFlags?: readonly string[];
  /**
   * For commands whose arguments end in free text (which may hold a lone apostrophe): when the text cannot be
   * tokenized, run anyway with whitespace-split `args` and no flags instead of replying AALIS_COMMAND_PARSE; the
   * handler reads `raw`.
   */
  lenient?: boolean;
  /** Runs the command. A thrown AalisError becomes its localized message as the reply; others a coded failure. */
  // biome-ignore lint/suspicious/noConfusingVoidType: lets handlers return nothing, sync or async.
  handler(context: CommandContext): CommandReply | void | Promise<CommandReply | void>;
}

/** A registered command as listed for /help. */
export interface CommandInfo {
  name: string;
  description: TextRef | string;
  usage?: TextRef | string;
  level: RequiredLevel;
  /** The plugin instance that registered it ('' outside a plugin). */
  plugin: string;
}

export interface CommandResult {
  /** Whether the text was a command (then the gateway does not pass it on to the agent). */
  handled: boolean;
  /** The reply, already translated; absent when the command replied nothing. */
  reply?: string;
}

export interface CommandsService {
  /**
   * Registers a command, owned by the caller (registrar). Throws AALIS_COMMAND_INVALID_NAME for a bad name and
   * AALIS_COMMAND_DUPLICATE when the name is taken.
   */
  register(definition: CommandDefinition, owner?: RegistrationOwner): Disposer;
  /** Parses a command text (pure; same as parseCommand). Throws AALIS_COMMAND_PARSE on malformed input. */
  parse(text: string, options?: ParseOptions): ParsedCommand;
  isCommand(text: string): boolean;
  /**
   * Runs the command in `message.content`. Not a command → { handled: false }. Otherwise handled, with a reply:
   * malformed input → the parse error; unknown name → AALIS_COMMAND_UNKNOWN suggesting /help; level too low →
   * AALIS_COMMAND_FORBIDDEN; handler failure → its message. Never throws.
   */
  execute(message: IncomingMessage): Promise<CommandResult>;
  /** The commands `caller` may run, ordered by name. */
  list(caller: Caller): CommandInfo[];
}

export const commands: ServiceDescriptor<CommandsService> = defineService<CommandsService>('commands', {
  registrars: ['register'],
});

declare module '@aalis/core' {
  interface EventMap {
    /**
     * `/clear -t <type>` for types that do not clear the message history (e.g. 'vector'): listeners clear their
     * own store for the session and call `acknowledge(type)` so the reply can say what was cleared.
     */
    'commands:clear': {
      sessionId: string;
      platform: string;
      types: readonly string[];
      caller: Caller;
      acknowledge(type: string): void;
    };
    /** A command ran (after its handler, whatever the outcome). */
    'commands:executed': {
      name: string;
      sessionId: string;
      outcome: 'ok' | 'unknown' | 'forbidden' | 'parse-error' | 'failed';
    };
  }
}
