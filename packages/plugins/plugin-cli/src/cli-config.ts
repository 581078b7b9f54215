// The config section of the terminal platform.
import { type Infer, s } from '@aalis/core';

export const cliConfigSchema = s
  .object({
    userId: s
      .string()
      .nonEmpty()
      .default('local')
      .describe('The local user\'s account on platform "cli". The runtime makes this account an owner.'),
    displayName: s
      .string()
      .nonEmpty()
      .optional()
      .describe("The local user's display name (default: the operating-system user name)."),
    session: s
      .string()
      .nonEmpty()
      .optional()
      .describe('Session id of the terminal conversation (default "cli:<userId>"); `--session <id>` overrides it.'),
    reasoning: s
      .enum(['collapsed', 'expanded', 'hidden'])
      .default('collapsed')
      .describe(
        'How reasoning shows in `aalis start`: one dimmed summary line (/reasoning expands it), dimmed in full, or not at all (`aalis chat` prints replies only).',
      ),
    usageAfterTurn: s
      .boolean()
      .default(false)
      .describe(
        'Print the token-usage line after every turn in `aalis start` (it is always available with /usage, in `aalis chat` too).',
      ),
    prompt: s.string().default('› ').describe('The input prompt of `aalis start`.'),
  })
  .describe('The terminal platform: interactive chat (`aalis start`) and line-by-line chat (`aalis chat`).');

export type CliConfig = Infer<typeof cliConfigSchema>;

/** The session the terminal talks in: the explicit one, the configured one, or `cli:<userId>`. */
export function cliSessionId(config: Pick<CliConfig, 'session' | 'userId'>, override?: string): string {
  return override ?? config.session ?? `cli:${config.userId}`;
}
