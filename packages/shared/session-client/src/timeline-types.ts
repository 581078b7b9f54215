// The conversation as the session protocol carries it (docs/session-protocol.md 「Timeline」): entries rebuilt from
// the archive, each turn with its inputs, what she wrote (text, reasoning, tool cards) and its outcome.

export type TurnOutcome = 'replied' | 'silent' | 'aborted' | 'error';

/** A person on a platform (same shape as IncomingMessage.actor). */
export interface PersonRef {
  platform: string;
  userId: string;
  displayName?: string;
}

export interface AttachmentRef {
  type: 'image' | 'file' | 'audio' | 'video';
  mimeType?: string;
  name?: string;
  /** Same-origin URL serving the bytes (login required), or the original http(s) URL. */
  url?: string;
  /** A text description a preprocessor made (for models that cannot see images). */
  description?: string;
}

/** One input of a turn (or one released without a turn). */
export interface TimelineInput {
  /** Storage id of the archived message. */
  id: string;
  /** The platform's message id (for a message sent through this protocol: the id `send` answered). */
  messageId?: string;
  /** The clientMessageId it was sent with through this protocol (while the server remembers it). */
  clientMessageId?: string;
  /** How it entered its turn; absent for an input released without a turn. */
  entry?: 'opened' | 'joined';
  /** The text as the person wrote it (without the archive's time and sender prefix when known). */
  text: string;
  sender: PersonRef | { platform: string; userId?: string; displayName?: string };
  /** Set for injected inputs (scheduler, workflow, host-notice …); absent for a real person. */
  source?: string;
  /** Milliseconds since the epoch: when it entered its turn. */
  at: number;
  attachments: AttachmentRef[];
}

/** Text she wrote in one model call of a turn. */
export interface TimelineText {
  kind: 'text';
  /** Storage id, or `live:<turnId>:<segment>` while not stored yet. */
  id: string;
  /** The model call within the turn, from 0. */
  segment: number;
  text: string;
  reasoning?: string;
  /** In rooms: words that were never sent to the platform (「未发出」). */
  unsent: boolean;
  /** The turn's final reply (the message that carries the turn record). */
  final: boolean;
  /** `<provider>/<model>` when stored. */
  model?: string;
}

export type ToolState = 'writing' | 'running' | 'done' | 'error';

/** A tool card, matched to its live events by callId. */
export interface TimelineTool {
  kind: 'tool';
  callId: string;
  segment: number;
  name: string;
  /** The arguments as the model wrote them (raw JSON text). */
  arguments: string;
  state: ToolState;
  result?: string;
  /** From tool:execute start to end, when this server saw it run. */
  durationMs?: number;
}

/** An input that joined the running turn, in the order it entered. */
export interface TimelineJoined {
  kind: 'input';
  input: TimelineInput;
}

/** A [错误] / [系统] notice of the turn, or a delivery failure. */
export interface TimelineNotice {
  kind: 'notice';
  id: string;
  tone: 'error' | 'info' | 'delivery-failure';
  /** In the host's language (all an older stored row has). */
  text: string;
  /** In each language a page may have, when the host kept its catalogue text: show `texts[pageLocale]`. */
  texts?: { 'zh-CN': string; en: string };
  at: number;
}

export type TurnItem = TimelineText | TimelineTool | TimelineJoined | TimelineNotice;

export interface TimelineTurn {
  kind: 'turn';
  turnId: string;
  /** The inputs that opened the turn. */
  inputs: TimelineInput[];
  /** In order: text and tool cards per model call, joined inputs where they entered, notices. */
  items: TurnItem[];
  /** Absent while the turn runs. */
  outcome?: TurnOutcome;
  /** On `error`: the one-sentence reason that was shown (the host's locale). */
  error?: string;
  /** On `error`, when the reason is a coded error: it in each locale a page may have; show `errors[pageLocale]`. */
  errors?: { 'zh-CN': string; en: string };
  /** On `aborted`: who stopped it, when a person did. */
  stoppedBy?: PersonRef;
  running: boolean;
  /** Injected turns: the injector (absent for a real person). */
  source?: string;
  startedAt: number;
  /** Set on a turn an edit, regenerate or retry took out of the active history. */
  superseded?: TurnSupersession;
  /** The versions this turn replaced, oldest first: each the turns one rollback took out. */
  previousVersions?: TimelineTurn[][];
}

export interface TurnSupersession {
  rollbackId: string;
  at: number;
  action: 'edit' | 'regenerate' | 'retry';
}

/** A slash command sent in the page and its answer: stored, never sent to a model. */
export interface TimelineCommand {
  kind: 'command';
  /** Storage id of the command line. */
  id: string;
  messageId?: string;
  clientMessageId?: string;
  text: string;
  sender: PersonRef | { platform: string; userId?: string; displayName?: string };
  at: number;
  /** The answer (Markdown); absent when the command answered nothing. */
  reply?: string;
  replyAt?: number;
}

/** A compression divider: what came before is summarised. */
export interface TimelineDivider {
  kind: 'divider';
  id: string;
  at: number;
  summary?: string;
}

/** An input that was released without entering a turn (stop with queued, shutdown …). */
export interface TimelineReleased {
  kind: 'released';
  input: TimelineInput;
}

/** A stored note outside any turn (a delivery failure without a turn, a system line). */
export interface TimelineNote {
  kind: 'note';
  id: string;
  tone: 'info' | 'delivery-failure';
  /** In the host's language (all an older stored row has). */
  text: string;
  /** As `TimelineNotice.texts`. */
  texts?: { 'zh-CN': string; en: string };
  /** The platform message id of the input the notice answers (a held-back message); it is placed after that input. */
  replyTo?: string;
  at: number;
}

export type TimelineEntry = TimelineTurn | TimelineDivider | TimelineReleased | TimelineNote | TimelineCommand;

/** An input waiting for the running turn: it will join it, or it is queued for the next one. */
export interface WaitingInput {
  /** Stable while it waits (its messageId when it has one): what `queue` events name it by. */
  key: string;
  messageId?: string;
  text: string;
  sender: { platform: string; userId?: string; displayName?: string };
  source?: string;
  at: number;
  /** `join`: a real person's message that the running turn will take in; `queue`: waits for the next turn. */
  disposition: 'join' | 'queue';
}

export interface Timeline {
  sessionId: string;
  entries: TimelineEntry[];
  /** What waits to join or is queued, in arrival order. */
  waiting: WaitingInput[];
  /** Whether the history has messages before the first entry that were not sent (see `subscribe` limit). */
  truncated: boolean;
}
