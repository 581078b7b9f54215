// The prompt of each session's latest conversation call, taken from agent:llm:after (the messages as sent, after
// trimming, and the tool definitions as the provider received them). A compaction that starts its summary request
// with these same bytes is served from the provider's prompt cache instead of paying for the history again.

import type { LlmAfterContext } from '@aalis/api-agent';
import type { LlmToolDefinition } from '@aalis/api-llm';
import { setBounded } from '@aalis/core';
import type { Message } from '@aalis/schema-message';

export interface ConversationPrompt {
  turnId: string;
  /** `<provider instance id>/<model id>` the call went to: the cache belongs to that model. */
  model: string;
  tools: readonly LlmToolDefinition[];
  messages: readonly Message[];
}

/** Sessions remembered at most; the least recently used goes first. */
const MAX_SESSIONS = 256;

export class ConversationPrompts {
  private readonly latest = new Map<string, ConversationPrompt>();

  /** agent:llm:after: the call's prompt becomes the session's latest. */
  record(context: Pick<LlmAfterContext, 'sessionId' | 'turnId' | 'model' | 'tools' | 'messages'>): void {
    const { turnId, model, tools, messages } = context;
    setBounded(this.latest, context.sessionId, { turnId, model, tools, messages }, MAX_SESSIONS);
  }

  get(sessionId: string): ConversationPrompt | undefined {
    return this.latest.get(sessionId);
  }

  /** `undefined` forgets every session (their history was cleared). */
  forget(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) this.latest.clear();
    else for (const sessionId of sessionIds) this.latest.delete(sessionId);
  }
}
