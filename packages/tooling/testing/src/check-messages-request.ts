// Test-only: what the Messages API refuses (400 invalid_request_error), checked by the emulating server so a
// provider cannot pass its tests with a request the real API would reject.
import { MAX_BREAKPOINTS } from './anthropic-prompt-cache.js';

type Block = { type?: string; id?: string; tool_use_id?: string; cache_control?: unknown };

export function checkMessagesRequest(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'the body is not a JSON object';
  const request = body as Record<string, unknown>;
  if (typeof request.model !== 'string' || request.model === '') return 'model: Field required';
  if (!Number.isInteger(request.max_tokens) || (request.max_tokens as number) < 1) return 'max_tokens: Field required';
  const messages = request.messages as Array<{ role?: string; content?: unknown }> | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  if (messages[0]!.role !== 'user') return 'messages: the first message must use the "user" role';
  let breakpoints = 0;
  const count = (blocks: unknown) => {
    if (Array.isArray(blocks)) for (const block of blocks as Block[]) if (block.cache_control) breakpoints++;
  };
  count(request.tools);
  count(request.system);
  let pendingToolUses: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages.${index}.role: must be user or assistant`;
    const blocks: Block[] =
      typeof message.content === 'string' ? [{ type: 'text' }] : Array.isArray(message.content) ? message.content : [];
    if (blocks.length === 0) return `messages.${index}: content must be non-empty`;
    count(blocks);
    if (message.role === 'user') {
      const answered = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
      for (const id of answered)
        if (!pendingToolUses.includes(id ?? ''))
          return `messages.${index}: unexpected tool_use_id found in tool_result blocks: ${id}. Each tool_result block must have a corresponding tool_use block in the previous message.`;
      const missing = pendingToolUses.filter((id) => !answered.includes(id));
      if (missing.length > 0)
        return `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}. Each tool_use block must have a corresponding tool_result block in the next message.`;
      pendingToolUses = [];
    } else {
      if (pendingToolUses.length > 0)
        return `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${pendingToolUses.join(', ')}`;
      pendingToolUses = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id ?? '');
    }
  }
  if (pendingToolUses.length > 0) return 'messages: the last tool_use blocks have no tool_result';
  if (breakpoints > MAX_BREAKPOINTS)
    return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  const thinking = request.thinking as { type?: string; budget_tokens?: number } | undefined;
  if (thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens ?? 0;
    if (!Number.isInteger(budget) || budget < 1024)
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (budget >= (request.max_tokens as number)) return '`max_tokens` must be greater than `thinking.budget_tokens`';
    if (request.temperature !== undefined && request.temperature !== 1)
      return '`temperature` may only be set to 1 when thinking is enabled';
    const lastAssistant = [...messages].reverse().find((message) => message.role === 'assistant');
    const blocks = Array.isArray(lastAssistant?.content) ? (lastAssistant.content as Block[]) : [];
    if (
      blocks.some((block) => block.type === 'tool_use') &&
      blocks[0]?.type !== 'thinking' &&
      blocks[0]?.type !== 'redacted_thinking'
    )
      return 'messages: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.';
  }
  return undefined;
}
