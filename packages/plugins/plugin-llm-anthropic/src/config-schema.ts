// The config section of one Anthropic Messages API provider instance (`plugins.llm-anthropic`).
import { type Infer, s } from '@aalis/core';
import { connectionFields, modelTimeoutsSchema, pricesSchema } from '@aalis/http-transport/config-schema';

const DEFAULT_MODELS = [
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000 },
  { id: 'claude-opus-4-1', contextWindow: 200_000, maxOutputTokens: 32_000 },
  { id: 'claude-haiku-4-5', contextWindow: 200_000, maxOutputTokens: 64_000 },
];

const modelSchema = s.object({
  id: s.string().nonEmpty().describe('The model id as the API knows it, e.g. claude-sonnet-4-5.'),
  name: s.string().optional().describe('Display name (default: the id).'),
  contextWindow: s.number().integer().min(1).optional().describe('Default 200000.'),
  maxOutputTokens: s.number().integer().min(1).optional().describe('Default 32000.'),
  vision: s.boolean().optional().describe('Accepts images (default true).'),
  thinking: s.boolean().optional().describe('Offers extended thinking levels (default true).'),
  timeouts: modelTimeoutsSchema,
  prices: pricesSchema,
});

export const anthropicConfigSchema = s
  .object({
    apiKey: s
      .string()
      .widget('password')
      .optional()
      .describe('Sent as x-api-key; never logged. Unset: the ANTHROPIC_API_KEY environment variable.'),
    baseUrl: s
      .string()
      .nonEmpty()
      .default('https://api.anthropic.com')
      .describe('API root (requests go to <baseUrl>/v1/messages).'),
    anthropicVersion: s.string().nonEmpty().default('2023-06-01').describe('The anthropic-version header.'),
    priority: s.number().default(0).describe('Selection priority among llm providers (higher wins).'),
    models: s
      .array(modelSchema)
      .default(DEFAULT_MODELS as Infer<typeof modelSchema>[]) // the keys left out are the optional ones
      .describe('The models offered, as <instance id>/<id> (anthropic/<id> with the runtime).'),
    thinkingBudgets: s
      .object({
        low: s.number().integer().min(1024).default(2_048),
        medium: s.number().integer().min(1024).default(8_192),
        high: s.number().integer().min(1024).default(24_576),
      })
      .describe('budget_tokens sent for each thinking level (level off sends no thinking).'),
    promptCaching: s
      .boolean()
      .default(true)
      .describe(
        'cache_control breakpoints at the end of the head (tools and system prompt), the end of the history and the last message, so requests between two trims read the cache.',
      ),
    ...connectionFields,
  })
  .describe('The Anthropic Messages API (Claude).');

export type AnthropicConfig = Infer<typeof anthropicConfigSchema>;
