// The config section of plugin-memory-summary: the default auto-compaction line and how summaries are requested.
import { type Infer, s } from '@aalis/core';

export const summaryConfigSchema = s
  .object({
    autoCompactRatio: s
      .number()
      .min(0)
      .max(1)
      .default(0.8)
      .describe(
        'Default auto-compaction line (session field autoCompactRatio): compact when the last call of a turn used at least this share of the context window, was hard-trimmed, or came within a quarter unit of the point where trimming starts dropping history. 0 = off.',
      ),
    model: s
      .string()
      .nonEmpty()
      .optional()
      .describe('Model for summaries (`<provider instance id>/<model id>`); unset = the session’s own model.'),
    maxSummaryTokens: s
      .number()
      .integer()
      .min(64)
      .default(2048)
      .describe('Most tokens one summary call may write (capped by the model’s max output).'),
    entryMaxChars: s
      .number()
      .integer()
      .min(200)
      .default(4000)
      .describe('Longest text one stored message contributes to the transcript the summarizer reads.'),
  })
  .describe('Compacts session history into a summary and injects it at the head of the prompt.');

export type SummaryConfig = Infer<typeof summaryConfigSchema>;
