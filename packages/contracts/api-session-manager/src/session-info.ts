// What the session manager knows about one conversation.
import type { TurnOutcome } from '@aalis/schema-message';

/**
 * The kinds of sessions:
 * - `room`: an IM group or an IM private chat where a platform adapter is the venue (replies are delivered to the
 *   platform; only a turn's last reply is sent).
 * - `direct`: a one-to-one conversation outside IM rooms (e.g. an API client).
 * - `child`: a subtask session; has a parent, and is deleted with it.
 * - `web`: a WebUI conversation.
 * - `cli`: a terminal conversation.
 */
export type SessionKind = 'room' | 'direct' | 'child' | 'web' | 'cli';

export const SESSION_KINDS: readonly SessionKind[] = ['room', 'direct', 'child', 'web', 'cli'];

/** The outcome of a session's most recent turn (from agent:turn:after). */
export interface LastTurn {
  turnId: string;
  outcome: TurnOutcome;
  /** On `error`: the one-sentence reason shown in the session. */
  error?: string;
  /** When the turn ended, milliseconds since the epoch. */
  at: number;
}

export interface SessionInfo {
  id: string;
  kind: SessionKind;
  /** The platform that delivers this session's messages ('webui', 'cli', 'qq'…). */
  platform: string;
  /** Room / chat id on the platform. */
  venue?: string;
  /** For `child` sessions: the parent session. */
  parentId?: string;
  /**
   * Where the session was born. Defaults to `platform`; a child takes its root's. Used to pick a platform layer
   * for sessions reached from elsewhere (the agent's token:request snapshot).
   */
  originPlatform?: string;
  /** The chat window the session was born in; `multiParty` = more than her and one person can speak there. */
  originChat?: { multiParty: boolean };
  title?: string;
  /** When a person pinned it (lists show pinned sessions first); absent: not pinned. */
  pinnedAt?: number;
  /** When a person archived it (lists leave it out; search still finds it); absent: not archived. */
  archivedAt?: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  lastTurn?: LastTurn;
}

/**
 * What ensure() needs to create a session: its `id` (1–512 characters), kind and platform, and what it was born
 * with. `parentId` is required for (and only for) `child` sessions; the parent must exist.
 */
export type SessionInit = Pick<
  SessionInfo,
  'id' | 'kind' | 'platform' | 'venue' | 'parentId' | 'originPlatform' | 'originChat' | 'title'
>;

/** What update() may change. `null` removes an optional field. */
export interface SessionPatch {
  title?: string | null;
  originChat?: { multiParty: boolean } | null;
  originPlatform?: string | null;
  venue?: string | null;
  /** Milliseconds since the epoch; null unpins. */
  pinnedAt?: number | null;
  /** Milliseconds since the epoch; null unarchives. */
  archivedAt?: number | null;
}

export interface SessionFilter {
  kind?: SessionKind;
  platform?: string;
  venue?: string;
  /** A parent id; `null` = root sessions only. */
  parentId?: string | null;
  /** Default 100, at most 1000. */
  limit?: number;
  offset?: number;
}
