// Live session events (docs/session-protocol.md 「Session events」): each reaches a subscriber in an `event` frame with
// the session's sequence number, in the order the host emitted them.
import type { PersonRef, TimelineCommand, TimelineInput, TurnOutcome, WaitingInput } from './timeline-types.js';

export interface SessionSummary {
  id: string;
  kind: 'room' | 'direct' | 'child' | 'web' | 'cli';
  platform: string;
  venue?: string;
  title?: string;
  parentId?: string;
  /** Direct children's ids, oldest first. */
  children: string[];
  createdAt: number;
  updatedAt: number;
  lastTurn?: { turnId: string; outcome: TurnOutcome; error?: string; at: number };
  /** A turn ended after this account last read the session. */
  unread: boolean;
  /** A turn runs now. */
  running: boolean;
  /** This account may send, stop, clear, compact and delete here. */
  writable: boolean;
  /**
   * Messages may be written here from the WebUI. False in IM rooms: people talk to her in the room itself, and
   * the WebUI shows the room's history read-only (stopping a turn and the settings still work).
   */
  canSend: boolean;
  /** Shown first in the list (the server always sends it; absent reads as false). */
  pinned?: boolean;
  /** Out of the list, still found by search (the server always sends it; absent reads as false). */
  archived?: boolean;
}

/** One row of a usage entry: drawn as given, in order, without knowing the labels. */
export interface UsagePart {
  /** Display name, already translated (the host's locale). */
  label: string;
  /** The display name in each locale a page may have: show `labels[pageLocale]`. */
  labels?: { 'zh-CN': string; en: string };
  tokens: number;
  /** This part by injector (`<plugin instance id>/<local id>` → tokens). */
  injectors?: Record<string, number>;
}

/** The figures of a real model call as stored with its turn's reply. */
export interface LastCallUsage {
  turnId: string;
  at: number;
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens (overlaps it). */
  cachedPromptTokens?: number;
  model?: string;
}

/** The `usage` entry: one model call's input (or the token:request snapshot when `turnId` is absent). */
export interface UsageEntry {
  turnId?: string;
  used: number;
  contextWindow: number;
  usageRatio: number;
  maxTokens: number;
  tokenBudget: number;
  trimmed: boolean;
  historyMessages: number;
  historyLimit: number;
  parts: UsagePart[];
  /** From llm:usage, when the provider reported them for this call. */
  cachedPromptTokens?: number;
  completionTokens?: number;
  model?: string;
  /** `used` is the provider's prompt tokens of the call (true) or the host's estimate (false). */
  measured?: boolean;
  /** The sum of `parts` (estimates): the rows add up to this, which may differ from `used`. */
  partsTotal?: number;
  /** On the snapshot: the last real model call of the session. */
  lastCall?: LastCallUsage;
}

export type SessionEvent =
  | { type: 'turn.started'; turnId: string; at: number }
  | { type: 'input'; turnId?: string; input: TimelineInput }
  | { type: 'text.delta'; turnId: string; segment: number; delta: string }
  | { type: 'reasoning.delta'; turnId: string; segment: number; delta: string }
  | {
      type: 'tool.progress';
      turnId: string;
      segment: number;
      callId: string;
      index: number;
      name?: string;
      argumentsDelta?: string;
    }
  | { type: 'tool.started'; turnId: string; segment: number; callId: string; name: string; arguments: string }
  | {
      type: 'tool.ended';
      turnId: string;
      callId: string;
      name: string;
      result: string;
      isError: boolean;
      durationMs: number;
    }
  /**
   * Text that went out to the platform (a reply) or a [错误]/[系统] notice: `text` in the host's language, `texts` in
   * each language a page may have when the notice is a catalogue text (show `texts[pageLocale]`).
   */
  | {
      type: 'message';
      turnId?: string;
      kind: 'reply' | 'error' | 'system';
      text: string;
      texts?: { 'zh-CN': string; en: string };
      replyTo?: string;
    }
  /**
   * The waiting list changed: the inputs that left it (by key), new dispositions of those still waiting, and the
   * inputs added at its end (queue-changes.ts applies it).
   */
  | {
      type: 'queue';
      removed: string[];
      dispositions: Record<string, WaitingInput['disposition']>;
      added: WaitingInput[];
    }
  | {
      type: 'turn.ended';
      turnId: string;
      outcome: TurnOutcome;
      error?: string;
      /** As `TimelineTurn.errors`: the reason in each locale, when it is a coded error. */
      errors?: { 'zh-CN': string; en: string };
      stoppedBy?: PersonRef;
      /** Segments whose text was never sent (rooms: everything but the last reply). */
      unsentSegments: number[];
    }
  | { type: 'usage'; usage: UsageEntry }
  /** `text` is the platform's reason; `texts` the whole note in each language, as the history shows it. */
  | { type: 'delivery.failed'; turnId?: string; text: string; texts?: { 'zh-CN': string; en: string }; at: number }
  | { type: 'session.updated'; session: SessionSummary }
  /** The session was deleted; the subscription ends with this event. */
  | { type: 'session.deleted'; sessionId: string }
  | { type: 'settings.changed'; key: string }
  /** A slash command sent through the protocol ran: its line and answer, as stored. */
  | { type: 'command'; entry: TimelineCommand };

export type SessionEventType = SessionEvent['type'];
