// The config section of plugin-memory-vector: how much is recalled into a turn and how it is weighed.
import { type Infer, s } from '@aalis/core';

export const memoryVectorConfigSchema = s
  .object({
    maxTokens: s
      .number()
      .integer()
      .min(100)
      .max(16_000)
      .default(2000)
      .describe(
        'Most tokens of recalled past messages one turn carries (estimated), and never more than a tenth of the turn model’s context window. The agent’s memoryTokenBudget still applies when a request must be cut (trim step 4).',
      ),
    maxHits: s.number().integer().min(1).max(50).default(35).describe('Most past messages found per turn.'),
    neighbours: s
      .number()
      .integer()
      .min(0)
      .max(5)
      .default(2)
      .describe(
        'Messages said just before and after each of the ten best found messages, recalled with it so it keeps its context.',
      ),
    itemMaxChars: s
      .number()
      .integer()
      .min(100)
      .max(10_000)
      .default(400)
      .describe('Longest text one recalled message contributes; longer ones are cut.'),
    neighbourMaxChars: s
      .number()
      .integer()
      .min(50)
      .max(10_000)
      .default(90)
      .describe(
        'Longest text a neighbour (a message recalled as context around a found one) contributes; longer ones are cut.',
      ),
    recencyHalfLifeDays: s
      .number()
      .min(1)
      .default(90)
      .describe('Age at which the recency bonus of a found message has halved.'),
    recencyWeight: s
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe('Share of a found message’s weight that depends on its age (0 = relevance alone).'),
    timeZone: s
      .string()
      .nonEmpty()
      .optional()
      .describe('IANA time zone of the times shown in recalled messages; unset = the message archive’s default (UTC).'),
    queryTimeoutMs: s
      .number()
      .integer()
      .min(100)
      .max(60_000)
      .default(3000)
      .describe(
        'With an embedding endpoint (plugins.embedding-openai): how long embedding a turn’s words may take; past it the turn recalls by full text alone.',
      ),
    catchUp: s
      .boolean()
      .default(true)
      .describe('On start, index in the background what the archive stored while this plugin was not running.'),
  })
  .describe('Long-term memory: indexes every archived message and recalls the most relevant past ones into each turn.');

export type MemoryVectorConfig = Infer<typeof memoryVectorConfigSchema>;
