// The conversation as the page draws it: turns with their inputs, what she wrote (reasoning and text per model
// call, tool cards, inputs that joined, notices) in the order it happened, and the outcome; plus what waits to
// join or is queued. Built by ConversationModel from the session protocol's timeline and live events.
import type { AttachmentRef, TurnOutcome } from '@aalis/session-client';

export interface PersonView {
  userId?: string;
  displayName?: string;
  platform?: string;
}

export interface InputView {
  key: string;
  /** The archive's id of the message (what a search hit names). */
  storageId?: string;
  messageId?: string;
  text: string;
  sender?: PersonView;
  /** Set for injected inputs (scheduler, workflow …). */
  source?: string;
  /** Milliseconds since the epoch. */
  at?: number;
  /** How it entered the turn: it opened it, or joined it while it ran; absent when released without a turn. */
  entry?: 'opened' | 'joined';
  attachments: readonly AttachmentRef[];
  /** Sent from this page and not yet placed by the server. */
  pending: boolean;
}

export type ToolCardState = 'writing' | 'running' | 'done' | 'error';

export interface ToolCardView {
  kind: 'tool';
  key: string;
  callId: string;
  name: string;
  /** The arguments as text (pretty JSON when they parse). */
  argumentsText: string;
  result?: string;
  durationMs?: number;
  state: ToolCardState;
}

/** What she wrote in one model call: its reasoning (shown collapsed) and its text. */
export interface TextItemView {
  kind: 'text';
  key: string;
  /** The archive's id of the message (what a search hit names); absent while it streams. */
  storageId?: string;
  segment: number;
  text: string;
  reasoning: string;
  /** In rooms: never sent to the platform (「未发出」). */
  unsent: boolean;
  /** Streamed before Stop: shown, copyable, but not kept (the history stores nothing of a stopped reply). */
  stopped?: boolean;
}

export interface JoinedInputView {
  kind: 'input';
  key: string;
  input: InputView;
}

/** A notice of the turn ([错误] / [系统] lines, delivery failures). */
export interface NoticeItemView {
  kind: 'notice';
  key: string;
  tone: 'error' | 'info' | 'delivery-failure';
  /** The host's text (an older stored notice has only this). */
  text: string;
  /** The notice in each language, when the host kept its catalogue text: shown in the page's language. */
  texts?: LocaleTexts;
}

/** A text the host sent in each language a page may have. */
export type LocaleTexts = { 'zh-CN': string; en: string };

export type TurnItemView = TextItemView | ToolCardView | JoinedInputView | NoticeItemView;

export interface TurnView {
  kind: 'turn';
  key: string;
  turnId?: string;
  inputs: readonly InputView[];
  items: readonly TurnItemView[];
  /** Undefined while the turn runs. */
  outcome?: TurnOutcome;
  error?: string;
  /** The reason in each locale, when the host sent both (a coded error): shown in the page's language. */
  errors?: { 'zh-CN': string; en: string };
  stoppedBy?: PersonView;
  running: boolean;
  /** Set on a turn an edit, regenerate or retry took out of the conversation (never sent to a model again). */
  superseded?: { rollbackId: string; action: 'edit' | 'regenerate' | 'retry'; at: number };
  /** The versions this turn replaced, oldest first: each the turns one rollback took out (「‹ 1/2 ›」). */
  versions: readonly (readonly TurnView[])[];
}

/** A slash command sent in the page and its answer (stored, never sent to a model). */
export interface CommandEntryView {
  kind: 'command';
  key: string;
  input: InputView;
  /** The answer as Markdown; undefined when the command answered nothing. */
  reply?: string;
  replyAt?: number;
}

/** A compression divider, a released input, a command or a note outside any turn. */
export type LooseEntryView =
  | CommandEntryView
  | { kind: 'divider'; key: string; summary?: string }
  | { kind: 'released'; key: string; input: InputView }
  | {
      kind: 'note';
      key: string;
      tone: 'info' | 'delivery-failure';
      text: string;
      texts?: LocaleTexts;
      /** The message id of the input it answers (a held-back message): shown after that input. */
      replyTo?: string;
    };

export type EntryView = TurnView | LooseEntryView;

export interface WaitingInputView {
  key: string;
  /** The id `send` answered, when the server knows it (a pending bubble with this id gives way to this entry). */
  messageId?: string;
  text: string;
  sender?: PersonView;
  /** Waits to join the running turn, or is queued for the next one. */
  state: 'join' | 'queue';
}

export interface ConversationSnapshot {
  sessionId: string;
  /** The timeline arrived (before that the page shows a loading state). */
  loaded: boolean;
  entries: readonly EntryView[];
  /** The page's own sends the server has not placed yet. */
  pending: readonly InputView[];
  /** The running turn's id (the Stop button applies), if any. */
  runningTurnId?: string;
  waiting: readonly WaitingInputView[];
  /** The server sent only the latest entries of a long history (`timeline.truncated`): earlier ones exist. */
  truncated: boolean;
  /** The session was deleted (the view closes it). */
  deleted: boolean;
  /** The message being edited in place: its turn and the text so far. */
  editing?: { turnId: string; text: string };
}
