// What the peers bench drives: one framework's agent, holding conversations by session, running the tool loop.
export interface BenchAgent {
  readonly name: string;
  /** One user message through the framework's own tool loop, to its final reply. */
  turn(sessionId: string, text: string): Promise<void>;
  close(): Promise<void>;
}

export interface BenchAgentOptions {
  /** The model server's base URL, with /v1. */
  url: string;
  /** A directory of its own for the agent's files (databases, logs). */
  dir: string;
  /** Token budget for the messages of each request, trimmed the framework's own way; undefined: no trimming. */
  budget?: number;
}

export const SYSTEM_PROMPT =
  'You are a helpful assistant. Answer briefly and use the lookup tool when the user asks for a stored value.';
export const MODEL_ID = 'bench-model';
