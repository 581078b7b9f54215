// Compaction before a turn's request: when the history no longer fits the limits, the older part becomes a summary
// (written by the model) and the session says how much it saved. The run's own user message is never summarised.
import type { Message } from '@aalis/schema-message';
import type { ResolvedAgentConfig } from './config.js';
import type { ConversationState } from './conversation-state.js';
import { compactHistory } from './history.js';
import type { SessionEventBody } from './session-events.js';
import { TEXTS } from './texts.js';

export async function compactConversation({
  state,
  config,
  basePrompt,
  protect,
  summarize,
  emit,
}: {
  state: ConversationState;
  config: ResolvedAgentConfig;
  basePrompt: string;
  /** The message the user sent for this run (keepRecent 0 included). */
  protect: Message | undefined;
  /** The model's summary of these messages, redacted. */
  summarize: (messages: Message[]) => Promise<string>;
  emit: (body: SessionEventBody) => void;
}): Promise<void> {
  const result = await compactHistory({
    basePrompt,
    summary: state.summary,
    messages: state.messages,
    limits: config.limits,
    texts: TEXTS[config.locale],
    ...(protect && { protect }),
    summarize,
  });
  if (!result.compacted) return;
  state.messages = result.messages;
  state.summary = result.summary;
  const { tokensBefore, tokensAfter } = result;
  emit({ type: 'compacted', tokensBefore, tokensAfter, keptMessages: result.messages.length });
}
