// The config section of plugin-skills: how many skills are kept, how long each may be, how many come into a turn.
import { type Infer, s } from '@aalis/core';

export const skillsConfigSchema = s
  .object({
    maxSkills: s
      .number()
      .integer()
      .min(1)
      .max(10_000)
      .default(200)
      .describe('Skills kept at most in all; saving a new one past it is refused until one is deleted.'),
    maxContentChars: s
      .number()
      .integer()
      .min(100)
      .max(20_000)
      .default(4000)
      .describe('Longest procedure of one skill, in characters; a longer one is refused.'),
    maxPerTurn: s
      .number()
      .integer()
      .min(0)
      .max(10)
      .default(3)
      .describe('Most skills given to one turn, the most relevant to its input first (0 = only by skill_search).'),
    maxTokens: s
      .number()
      .integer()
      .min(100)
      .max(16_000)
      .default(1500)
      .describe(
        'Most tokens of skills one turn carries (estimated); a skill that does not fit is left out. The agent’s memoryTokenBudget still applies when a request must be cut.',
      ),
  })
  .describe('Skills: procedures she saves for reuse (skill_save), found by relevance and given to the turns they fit.');

export type SkillsConfig = Infer<typeof skillsConfigSchema>;

/** Longest skill name, in characters. */
export const MAX_NAME_CHARS = 80;
