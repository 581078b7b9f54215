// plugins.user-profile: the optional extraction pass after turns (off unless `extraction` is set) and its bounds.
import { type Infer, s } from '@aalis/core';

export const extractionConfigSchema = s
  .object({
    enabled: s
      .boolean()
      .default(false)
      .describe('Runs the extraction pass after turns (off by default: facts come only from memory_remember).'),
    model: s
      .string()
      .nonEmpty()
      .optional()
      .describe('The model that extracts facts (<provider>/<model>); default: the llm service’s selection.'),
    maxFactsPerTurn: s
      .number()
      .integer()
      .min(1)
      .max(20)
      .default(5)
      .describe('Most facts kept from one turn, for all its speakers together.'),
    maxFactsPerPerson: s
      .number()
      .integer()
      .min(1)
      .max(10)
      .default(3)
      .describe('Most facts kept about one person from one turn.'),
    maxInputChars: s
      .number()
      .integer()
      .min(200)
      .max(20_000)
      .default(4000)
      .describe('Most characters of the turn (its inputs, then her reply) the extraction reads.'),
    timeoutMs: s
      .number()
      .integer()
      .min(1000)
      .max(300_000)
      .default(30_000)
      .describe('How long one extraction call may take; past it the turn’s facts are skipped.'),
    maxWaiting: s
      .number()
      .integer()
      .min(0)
      .max(1000)
      .default(16)
      .describe(
        'Turns waiting for extraction at most (one runs at a time); a turn past it is skipped (said in the debug log).',
      ),
  })
  .optional()
  .describe(
    'The extraction pass: after each turn a person took part in, one model call (purpose 「档案提取」 in llm:usage) picks facts the speakers said about themselves into their profiles, in the background (the reply never waits). Off unless enabled: true.',
  );

export const userProfileConfigSchema = s
  .object({ extraction: extractionConfigSchema })
  .describe(
    'Profiles: facts about each person, kept by memory_remember (and the optional extraction pass), forgotten by memory_forget.',
  );

export type ExtractionConfig = NonNullable<Infer<typeof extractionConfigSchema>>;
