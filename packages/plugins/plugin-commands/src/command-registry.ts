// The commands service: a case-insensitive registry of slash commands, the level check, and safe execution.
import { authorisedIdentityOf, type Caller, describeRequiredLevel, meetsLevel } from '@aalis/api-authority';
import {
  type CommandDefinition,
  type CommandInfo,
  type CommandResult,
  type CommandsService,
  commandErrors,
  formatCommandError,
  isCommand,
  isCommandName,
  type ParseOptions,
  parseCommand,
} from '@aalis/api-commands';
import {
  AalisError,
  type Disposer,
  type EventMap,
  type Events,
  type Locale,
  type Logger,
  type RegistrationOwner,
  type TextRef,
  translate,
} from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';

interface Entry {
  definition: CommandDefinition;
  plugin: string;
}

export interface CommandRegistryOptions {
  locale: Locale;
  /** Resolves a caller; absent authority → nobody in particular (level 0, not owner) with that identity. */
  callerOf?: (identity: Identity | undefined) => Caller;
  events?: Pick<Events, 'emit'>;
  logger?: Logger;
}

export class CommandRegistry implements CommandsService {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: CommandRegistryOptions) {}

  register(definition: CommandDefinition, owner?: RegistrationOwner): Disposer {
    if (typeof definition?.name !== 'string' || !isCommandName(definition.name)) {
      throw commandErrors.AALIS_COMMAND_INVALID_NAME({ name: String(definition?.name) });
    }
    const key = definition.name.toLowerCase();
    const existing = this.entries.get(key);
    if (existing) {
      throw commandErrors.AALIS_COMMAND_DUPLICATE({ name: definition.name, plugin: existing.plugin || '(host)' });
    }
    const entry: Entry = { definition, plugin: owner?.instanceId ?? '' };
    this.entries.set(key, entry);
    return () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
  }

  parse(text: string, options?: ParseOptions) {
    return parseCommand(text, options);
  }

  isCommand(text: string): boolean {
    return isCommand(text);
  }

  list(caller: Caller): CommandInfo[] {
    return [...this.entries.values()]
      .filter(({ definition }) => meetsLevel({ ...caller, required: definition.level }))
      .map(({ definition, plugin }) => {
        const info: CommandInfo = {
          name: definition.name,
          description: definition.description,
          level: definition.level ?? 0,
          plugin,
        };
        if (definition.usage !== undefined) info.usage = definition.usage;
        return info;
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The definition registered under a name (case-insensitive). */
  get(name: string): CommandDefinition | undefined {
    return this.entries.get(name.toLowerCase())?.definition;
  }

  callerOf(message: IncomingMessage): Caller {
    const identity = authorisedIdentityOf(message);
    if (this.options.callerOf) return this.options.callerOf(identity);
    return identity ? { identity, isOwner: false, level: 0 } : { isOwner: false, level: 0 };
  }

  async execute(message: IncomingMessage): Promise<CommandResult> {
    const text = message.content;
    if (typeof text !== 'string' || !isCommand(text)) return { handled: false };
    // The sender's language when the client said it (a WebUI page), else the host's.
    const locale: Locale = message.locale === 'zh-CN' || message.locale === 'en' ? message.locale : this.options.locale;
    const t = (value: string | TextRef) => translate(value, locale);
    const name = /^\s*\/(\S+)/u.exec(text)![1]!;
    const done = (outcome: EventMap['commands:executed']['outcome'], reply?: string): CommandResult => {
      this.options.events?.emit('commands:executed', { name, sessionId: message.sessionId, outcome });
      return reply === undefined ? { handled: true } : { handled: true, reply };
    };
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return done('unknown', formatCommandError(commandErrors.AALIS_COMMAND_UNKNOWN({ name }), locale));
    const { definition } = entry;
    let parsed: ReturnType<typeof parseCommand>;
    try {
      parsed = parseCommand(text, definition.booleanFlags ? { booleanFlags: definition.booleanFlags } : {});
    } catch (error) {
      if (!definition.lenient) return done('parse-error', this.describeFailure(definition.name, error, locale));
      const raw = text
        .trimStart()
        .slice(name.length + 1)
        .trimStart();
      parsed = { name, args: raw.split(/\s+/u).filter((arg) => arg !== ''), flags: {}, raw };
    }
    let caller: Caller;
    try {
      caller = this.callerOf(message);
    } catch (error) {
      return done('failed', this.describeFailure(definition.name, error, locale));
    }
    if (!meetsLevel({ ...caller, required: definition.level })) {
      const refusal = commandErrors.AALIS_COMMAND_FORBIDDEN({
        name: definition.name,
        required: describeRequiredLevel(definition.level),
        level: caller.level,
      });
      return done('forbidden', formatCommandError(refusal, locale));
    }
    try {
      const reply = await definition.handler({
        sessionId: message.sessionId,
        platform: message.platform,
        message,
        caller,
        args: parsed.args,
        flags: parsed.flags,
        raw: parsed.raw,
        t,
      });
      return done('ok', reply === undefined || reply === null ? undefined : t(reply));
    } catch (error) {
      return done('failed', this.describeFailure(definition.name, error, locale));
    }
  }

  private describeFailure(name: string, error: unknown, locale: Locale): string {
    const { logger } = this.options;
    if (AalisError.isInstance(error)) return formatCommandError(error, locale);
    logger?.error(`command /${name} failed`, { error: error instanceof Error ? error.stack : String(error) });
    const reason = error instanceof Error ? error.message : String(error);
    return formatCommandError(commandErrors.AALIS_COMMAND_FAILED({ name, reason }), locale);
  }
}
