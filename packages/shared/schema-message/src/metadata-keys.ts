// The one registry of metadata key names. No other package writes ad-hoc metadata key strings.

export const WellKnownMetadataKeys = {
  /** The turn id a stored message belongs to (inputs, tool-call groups, replies, markers). */
  TurnId: 'turnId',
  /** How an input entered its turn: 'opened' | 'joined'. */
  TurnEntry: 'turnEntry',
  /** The id of one tool call, on tool results and timeline tool_call parts. */
  CallId: 'callId',
  /** The TurnRecord of a turn, on its last stored reply or on its event marker. */
  TurnRecord: 'turnRecord',
  /** Decoded visible text when the stored content is a structured-output envelope. */
  VisibleContent: 'visibleContent',
  /** `<provider instance id>/<model id>` that produced a reply. */
  Model: 'model',
  PromptTokens: 'promptTokens',
  CompletionTokens: 'completionTokens',
  CachedPromptTokens: 'cachedPromptTokens',
  /** The platform of the turn (replies) or of the input (archived inputs). */
  Platform: 'platform',
  /** Her own account on that platform. */
  SelfId: 'selfId',
  /** Room / chat id on the platform. */
  Venue: 'venue',
  /** Session kind of the turn: room, direct, child… */
  SessionKind: 'sessionKind',
  SenderId: 'senderId',
  SenderName: 'senderName',
  /** The authorised identity of an input (IncomingMessage.actor). */
  Actor: 'actor',
  /** The terminal an input was typed into (its process's lease holder id), wherever its turn runs. */
  Terminal: 'aalisTerminal',
  MessageId: 'messageId',
  ReplyTo: 'replyTo',
  /** Source of an injected input (absent for a real person). */
  Source: 'source',
  TriggerType: 'triggerType',
  /** Which injector produced a system block (cross-session-delegation, host-notice, idle-prompt, contribution keys). */
  Injector: 'injector',
  /** Host notice `{ kind, id }` on inputs and replies. */
  HostNotice: 'hostNotice',
  /** Arrival number assigned by the gateway. */
  Arrival: 'arrival',
  /** Who stopped a turn, on turn-stopped markers. */
  StoppedBy: 'stoppedBy',
  /** Tool error flag on tool results. */
  ToolError: 'toolError',
  /** Summary text carried by a compression divider. */
  Summary: 'summary',
  /**
   * On a delivery-failure record: `{ platform, code, reason, text? }` of a reply the platform could not deliver;
   * `text` is the note's catalogue text (NoticeText), so each reader is shown it in their language.
   */
  DeliveryFailure: 'deliveryFailure',
  /**
   * On an event marker that records a notice sent outside a turn (a budget, flow or attachment notice):
   * `{ kind: 'system' | 'error', text }`, `text` its catalogue text (NoticeText); the marker's content is the notice in
   * the host's language. A turn's own [错误]/[系统] notice is its TurnRecord's error.
   */
  Notice: 'notice',
  /**
   * On a message an edit, regenerate or retry took out of the active history: `{ id, at, action }` (the rollback).
   * It stays in the archive (timeline, exports, search) and is never sent to a model or counted.
   */
  Superseded: 'superseded',
} as const;

export type WellKnownMetadataKey = (typeof WellKnownMetadataKeys)[keyof typeof WellKnownMetadataKeys];

/** How an input entered its turn. */
export type TurnEntry = 'opened' | 'joined';
