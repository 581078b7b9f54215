// Attribute names of the OpenTelemetry GenAI semantic conventions (gen_ai.*, semconv 1.37+) that our spans carry,
// and the aalis.* ones for what the conventions have no name for (turn ids and outcomes, the context trim).
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

export const AALIS = {
  turnId: 'aalis.turn.id',
  outcome: 'aalis.turn.outcome',
  iteration: 'aalis.llm.iteration',
  /** The model as Aalis names it, `<provider instance id>/<model id>` (gen_ai.request.model has the model id). */
  modelRef: 'aalis.llm.model_ref',
  trimmed: 'aalis.context.trimmed',
  usedTokens: 'aalis.context.used_tokens',
  tokenBudget: 'aalis.context.token_budget',
  usageRatio: 'aalis.context.usage_ratio',
  untrimmedHistory: 'aalis.context.untrimmed_history_tokens',
  historyMessages: 'aalis.context.history_messages',
  toolCalls: 'aalis.llm.tool_calls',
  latencyMs: 'aalis.llm.latency_ms',
} as const;

/** Our finish reasons in the conventions' words. */
export function finishReasonName(reason: string): string {
  if (reason === 'tool-calls') return 'tool_call';
  if (reason === 'content-filter') return 'content_filter';
  return reason;
}
