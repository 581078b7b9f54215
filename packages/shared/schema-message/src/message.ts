// The stored and model-facing message shape shared by every package: history, archive, agent, trimming, Pling.

/** Who a message is from, in the OpenAI Chat Completions sense. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call as the model produced it (OpenAI-shaped; `arguments` is the raw JSON text). */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An image or file carried with a message. Exactly one of `url` and `data` is normally set. */
export interface Attachment {
  type: 'image' | 'file' | 'audio' | 'video';
  mimeType?: string;
  /** A URL the model provider or a tool can fetch (http(s) or data:). */
  url?: string;
  /** Base64 payload when no URL exists. */
  data?: string;
  name?: string;
  /** A text description produced by a preprocessor, used when the model cannot see images. */
  description?: string;
}

/**
 * Kinds of non-conversation entries. `turn-stopped` is a conversation message (sent to the model, counted);
 * the control kinds listed in CONTROL_KINDS are not.
 */
export type MessageKind =
  | 'event-marker'
  | 'compression-divider'
  | 'turn-stopped'
  | 'delivery-failure'
  | 'summary'
  // Other packages may add kinds; they are conversation messages unless added to CONTROL_KINDS.
  | (string & {});

export interface Message {
  /** Storage id, set by the memory service. */
  id?: string;
  role: Role;
  content: string;
  toolCalls?: ToolCall[];
  /** On `tool` messages: the id of the call this result answers. */
  toolCallId?: string;
  /** On `tool` messages: the tool's name. */
  name?: string;
  reasoningContent?: string;
  kind?: MessageKind;
  attachments?: Attachment[];
  /** Keys are WellKnownMetadataKeys values (or keys written by agent:tool:after middleware). */
  metadata?: Record<string, unknown>;
  /** Milliseconds since the epoch. */
  timestamp?: number;
}

/**
 * Kinds that are markers or records: never sent to a model, never counted as history. `command` and
 * `command-reply` are a slash command typed in a UI and its answer, kept so the conversation shows them.
 */
export const CONTROL_KINDS: ReadonlySet<string> = new Set<string>([
  'event-marker',
  'compression-divider',
  'command',
  'command-reply',
]);

export function isControlMessage(message: Pick<Message, 'kind'>): boolean {
  return message.kind !== undefined && CONTROL_KINDS.has(message.kind);
}

export function hasToolCalls(message: Message): message is Message & { toolCalls: ToolCall[] } {
  return message.role === 'assistant' && Array.isArray(message.toolCalls) && message.toolCalls.length > 0;
}
