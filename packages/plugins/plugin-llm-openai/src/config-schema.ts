// The config section of one OpenAI-compatible provider instance.
import { type Infer, s } from '@aalis/core';
import { connectionFields, modelTimeoutsSchema, pricesSchema } from '@aalis/http-transport/config-schema';

const thinkingSchema = s
  .object({
    levels: s.array(s.object({ id: s.string().nonEmpty(), name: s.string().nonEmpty() })),
    default: s.string().nonEmpty(),
  })
  .describe('The thinking levels the model offers and its default; leave out for a model that cannot be adjusted.');

const modelSchema = s.object({
  id: s.string().nonEmpty().describe('The model id as the server knows it.'),
  name: s.string().optional().describe('Display name (default: the id).'),
  contextWindow: s.number().integer().min(1).optional(),
  maxOutputTokens: s.number().integer().min(1).optional(),
  capabilities: s.object({ tools: s.boolean().optional(), vision: s.boolean().optional() }).optional(),
  thinking: thinkingSchema.optional(),
  reasoningParam: s
    .object({
      field: s.string().nonEmpty().default('reasoning_effort'),
      values: s.record(s.unknown()).optional(),
    })
    .optional()
    .describe(
      'How a thinking level goes into the request: the field (dotted for nested, e.g. chat_template_kwargs.enable_thinking) and a value per level id (default: the id). Default: reasoning_effort.',
    ),
  maxTokensField: s.enum(['max_tokens', 'max_completion_tokens']).optional(),
  timeouts: modelTimeoutsSchema,
  sendReasoning: s
    .boolean()
    .optional()
    .describe('Send earlier reasoning back as reasoning_content (default true; some servers refuse it).'),
  prices: pricesSchema,
});

export const openAiConfigSchema = s.object({
  baseUrl: s.string().nonEmpty().describe('API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1.'),
  apiKey: s.string().widget('password').optional().describe('Sent as a Bearer token; never logged.'),
  priority: s.number().default(0).describe('Selection priority among llm providers (higher wins).'),
  models: s.array(modelSchema).default([]),
  fetchModels: s.boolean().default(true).describe('Also list the models the server offers (GET /models) at start.'),
  modelDefaults: s.object({
    contextWindow: s.number().integer().min(1).default(128_000),
    maxOutputTokens: s.number().integer().min(1).default(8_192),
    tools: s.boolean().default(true),
    vision: s.boolean().default(false),
  }),
  streamUsage: s.boolean().default(true).describe('Ask for usage in the stream (stream_options.include_usage).'),
  ...connectionFields,
});

export type OpenAiConfig = Infer<typeof openAiConfigSchema>;
export type OpenAiModelConfig = OpenAiConfig['models'][number];
