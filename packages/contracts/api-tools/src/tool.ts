// What a tool is, what it receives when it runs (ToolCallContext) and what it returns (ToolResult).
import type { InboundOrigin, RequiredLevel } from '@aalis/api-authority';
import type { Attachment, Identity, JsonObjectSchema } from '@aalis/schema-message';

/** Tool names as model APIs accept them. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The context of one tool call (plugin-agent.zh.md 「工具调用上下文」). Session, platform, userId, participants,
 * inbound and authorised come from api-authority's originTurnOf over the inputs already sent to the model when
 * the batch of tool calls started.
 */
export interface ToolCallContext {
  sessionId: string;
  /** The turn's platform (that of its opening input). */
  platform: string;
  /** The physical speaker when every input of the turn has the same one; absent otherwise. */
  userId?: string;
  /** Who takes part in the turn (the owner's identities merged into one participant). Levels are judged on these. */
  participants: Identity[];
  /**
   * Where the turn's inputs came from: `source` undefined for a real person, the injector otherwise; `fromTurn`
   * for a continuation; `messageId` of the turn's latest input. Only the agent fills this in, so a tool can tell
   * positively that it runs in a turn driven by inbound messages.
   */
  inbound: InboundOrigin;
  /** The authorised identity of each input so far, index for index (undefined = nobody); see OriginTurn. */
  authorised?: (Identity | undefined)[];
  /** The turn's abort signal. Tools that wait on something else should stop waiting when it aborts. */
  signal: AbortSignal;
  turnId: string;
  /** The id of this call (the same one the streamed tool-call progress carried). */
  callId: string;
  /** Whether the turn's main model can see images (same value as agent:llm:before's acceptsImages). */
  acceptsImages: boolean;
}

/** What a tool call produced, as the model will read it. */
export interface ToolResult {
  /** The text the model reads. */
  content: string;
  /** The call failed; `content` says why and, where possible, how to fix it. */
  isError?: boolean;
  /** The coded error of a failure produced by the tools service (AALIS_TOOLS_*), or by the tool itself. */
  code?: string;
  /** Images or files produced by the tool (shown to the model when it accepts images). */
  attachments?: Attachment[];
  /** Stored with the tool result message (keys: WellKnownMetadataKeys or the tool's own namespaced keys). */
  metadata?: Record<string, unknown>;
}

/**
 * What a handler may return. A ToolResult (an object whose `content` is a string and whose other keys are among
 * isError, code, attachments, metadata) is used as it is; a string becomes `{ content }`; `undefined`/`null`
 * becomes `{ content: '' }`; anything else is serialised with JSON.stringify (String(value) when that fails).
 * See toToolResult.
 */
export type ToolHandlerResult = ToolResult | string | unknown;

export interface Tool<Args = Record<string, unknown>> {
  /** ^[a-zA-Z0-9_-]{1,64}$, unique across all plugins. */
  name: string;
  /** What the tool does and when to use it (model-visible). */
  description: string;
  /** JSON Schema of the arguments; the top level is an object. Arguments are checked against it before the handler. */
  parameters: JsonObjectSchema;
  /** Tools with a group are offered only in sessions whose enabledToolGroups include it; without, always. */
  group?: string;
  /** Level the turn's participants need (api-authority RequiredLevel); default 0 = everyone. */
  level?: RequiredLevel;
  /** Runs the tool with validated arguments. A throw becomes an error result. */
  handler(args: Args, context: ToolCallContext): Promise<ToolHandlerResult> | ToolHandlerResult;
}

/** A tool as offered to a model. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonObjectSchema;
}

/** A registered tool as listed (no handler). */
export interface ToolInfo extends ToolDefinition {
  group?: string;
  level: RequiredLevel;
  /** The plugin instance that registered it ('' outside a plugin). */
  plugin: string;
}
