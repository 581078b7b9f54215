// The slash-command parser: `/name args…` with "…" and '…' quotes, backslash escapes and -x/--long flags.
import { commandParseError } from './command-errors.js';

export interface ParsedCommand {
  /** The command name without the slash, e.g. 'session.set'. */
  name: string;
  /** Positional arguments, quotes removed and escapes resolved. */
  args: string[];
  /** Flags: `-p 2` → { p: '2' }, `--all` → { all: true }, `--page=2` → { page: '2' }. A repeated flag keeps the last. */
  flags: Record<string, string | true>;
  /** The text after the name, unparsed (leading whitespace removed). */
  raw: string;
}

export interface ParseOptions {
  /** Flags that never take a value (the next token stays positional). */
  booleanFlags?: readonly string[];
}

const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.-]*$/u;
const FLAG = /^--?([\p{L}_][\p{L}\p{N}_.-]*)(?:=(.*))?$/su;

/** Whether a command name is well-formed: letters, digits, '_', '-', '.'; not starting with '.' or '-'. */
export function isCommandName(name: string): boolean {
  return NAME.test(name);
}

/** Whether the text is a slash command: '/' then a well-formed name, then whitespace or the end. */
export function isCommand(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('/')) return false;
  const match = /^\/(\S+)/u.exec(trimmed);
  return match !== null && isCommandName(match[1]!);
}

interface Token {
  text: string;
  /** Whether any part was quoted or escaped: such a token is never a flag. */
  literal: boolean;
}

/**
 * Splits the argument text into tokens. Outside quotes a backslash escapes the next character; inside "…" it
 * escapes `"` and `\` (other backslashes stay); inside '…' everything is literal. Throws AALIS_COMMAND_PARSE on an
 * unterminated quote or a trailing lone backslash. `offset` maps positions back to the whole text (1-based).
 */
export function tokenize(text: string, offset = 0): Token[] {
  const tokens: Token[] = [];
  let current: Token | undefined;
  let index = 0;
  const append = (value: string, literal: boolean) => {
    current ??= { text: '', literal: false };
    current.text += value;
    current.literal ||= literal;
  };
  while (index < text.length) {
    const char = text[index]!;
    if (/\s/u.test(char)) {
      if (current) tokens.push(current);
      current = undefined;
      index++;
    } else if (char === '\\') {
      if (index + 1 >= text.length) throw commandParseError('danglingEscape', { position: offset + index + 1 });
      append(text[index + 1]!, true);
      index += 2;
    } else if (char === '"' || char === "'") {
      const start = index;
      index++;
      let value = '';
      let closed = false;
      while (index < text.length) {
        const inner = text[index]!;
        if (inner === char) {
          closed = true;
          index++;
          break;
        }
        if (char === '"' && inner === '\\' && (text[index + 1] === '"' || text[index + 1] === '\\')) {
          value += text[index + 1];
          index += 2;
          continue;
        }
        value += inner;
        index++;
      }
      if (!closed) throw commandParseError('unterminatedQuote', { quote: char, position: offset + start + 1 });
      append(value, true);
    } else {
      append(char, false);
      index++;
    }
  }
  if (current) tokens.push(current);
  return tokens;
}

/**
 * Parses a slash command. Flags: `--name`, `--name value`, `--name=value`, `-x`, `-x value`; a flag takes the
 * next token as its value unless that token is itself a flag or the flag is in `booleanFlags`. `-5` and `-` are
 * positional (negative numbers), quoted tokens are never flags, and `--` ends flag parsing.
 */
export function parseCommand(text: string, options: ParseOptions = {}): ParsedCommand {
  const trimmed = text.trimStart();
  const lead = text.length - trimmed.length;
  if (!isCommand(trimmed)) throw commandParseError('notCommand', { text: trimmed.slice(0, 40) });
  const name = /^\/(\S+)/u.exec(trimmed)![1]!;
  const afterName = trimmed.slice(name.length + 1);
  const raw = afterName.trimStart();
  const tokens = tokenize(afterName, lead + name.length + 1);
  const booleanFlags = new Set(options.booleanFlags ?? []);
  const args: string[] = [];
  const flags: Record<string, string | true> = {};
  const flagOf = (token: Token | undefined) => (token && !token.literal ? FLAG.exec(token.text) : null);
  let flagsEnded = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (!flagsEnded && !token.literal && token.text === '--') {
      flagsEnded = true;
      continue;
    }
    const flag = flagsEnded ? null : flagOf(token);
    if (!flag) {
      args.push(token.text);
      continue;
    }
    const flagName = flag[1]!;
    if (flag[2] !== undefined) {
      flags[flagName] = flag[2];
      continue;
    }
    const next = tokens[index + 1];
    if (next && !booleanFlags.has(flagName) && !flagOf(next) && !(next.text === '--' && !next.literal)) {
      flags[flagName] = next.text;
      index++;
    } else {
      flags[flagName] = true;
    }
  }
  return { name, args, flags, raw };
}
