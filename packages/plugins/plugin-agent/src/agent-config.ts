// plugin-agent's config section (plugin-agent.zh.md 「配置」).
import { type Infer, s } from '@aalis/core';

export const agentConfigSchema = s
  .object({
    systemPrompt: s
      .string()
      .default('')
      .widget('textarea')
      .describe('Behaviour rules appended after the persona prompt (the whole system prompt when no persona).'),
    memoryTokenBudget: s
      .number()
      .integer()
      .min(0)
      .default(4096)
      .describe('Token quota of injected system blocks, used only when hard trimming still exceeds the budget.'),
    promptBuildTimeoutMs: s
      .number()
      .integer()
      .min(0)
      .default(10_000)
      .describe('Upper bound for one agent:prompt contribution build; a slower one is absent this call. 0 = no limit.'),
    toolResultMaxRatio: s
      .number()
      .min(0)
      .max(1)
      .default(0.15)
      .describe('Largest share of the context window one tool result may take; longer results are truncated.'),
    trimThresholdRatio: s
      .number()
      .min(0)
      .max(1)
      .default(1)
      .describe('Trim budget = context window × this − max output tokens − 512 (at least 1024).'),
    think: s.string().optional().describe('Default thinking level id; overridable per session.'),
    maxToolIterations: s
      .number()
      .integer()
      .min(1)
      .optional()
      .describe('Most tool batches per turn; unset = no limit. Overridable per session.'),
    historyLimit: s
      .number()
      .integer()
      .min(0)
      .default(0)
      .describe('History messages sent per turn (0 = all active history). Overridable per session.'),
    formatRetries: s
      .number()
      .integer()
      .min(0)
      .max(5)
      .default(2)
      .describe('Retries when a structured-output reply fails its schema (the failed versions are never sent).'),
    timeZone: s.string().default('UTC').describe('IANA time zone of time annotations and the volatile context.'),
    usageLogEvery: s
      .number()
      .integer()
      .min(1)
      .default(10)
      .describe('The [token-usage] log line is forced every this many turns per session.'),
    /** Ignored (the model is the plugin's service preference); accepted so it can be warned about once. */
    llm: s.unknown().optional().describe('Not used: set the model with the llm service preference.'),
  })
  .describe('The default conversation orchestrator.');

export type AgentConfig = Infer<typeof agentConfigSchema>;
