// The session manager contract: persisted sessions with parents and children, deletion generations, and session
// deletion handed to the agent's clearing chain.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { LastTurn, SessionFilter, SessionInfo, SessionInit, SessionPatch } from './session-info.js';

export interface DeleteSessionOptions {
  /** Why; written to the logs and passed to AgentService.clearing and session:deleted. */
  reason?: string;
}

export interface DeleteSessionReport {
  /** The deleted sessions, deepest children first, the session itself last. */
  deleted: string[];
}

export interface SessionManagerService {
  /**
   * Returns the session, creating it (session:created) when it does not exist. An existing session is returned
   * unchanged; one whose kind, platform or parent differ from `init` is refused (AALIS_SESSION_CONFLICT). While
   * the session is being deleted, waits for the deletion to finish and then creates it anew.
   */
  ensure(init: SessionInit): Promise<SessionInfo>;
  get(sessionId: string): Promise<SessionInfo | undefined>;
  /** Sessions matching the filter, most recently updated first. */
  list(filter?: SessionFilter): Promise<SessionInfo[]>;
  /** Direct children, oldest first. */
  children(sessionId: string): Promise<SessionInfo[]>;
  /** The root of the session's parent chain (the session itself when it has no parent); undefined when unknown. */
  rootOf(sessionId: string): Promise<SessionInfo | undefined>;
  /** Changes a session (session:updated). Unknown session: AALIS_SESSION_UNKNOWN. */
  update(sessionId: string, patch: SessionPatch): Promise<SessionInfo>;
  /** Records the outcome of the session's latest turn (session:updated); ignored for an unknown session. */
  recordTurn(sessionId: string, lastTurn: LastTurn): Promise<void>;
  /**
   * The session's deletion generation: an integer bumped (for the session and all its descendants) when a deletion
   * starts. Compare two readings within one process only; the counter lives in memory and starts at 0.
   */
  generationOf(sessionId: string): number;
  /** Whether a deletion of the session (or of an ancestor) is in progress. */
  isDeleting(sessionId: string): boolean;
  /** Resolves when no deletion of the session is in progress (at once when none is). */
  settled(sessionId: string): Promise<void>;
  /**
   * Deletes the session and its descendants: bumps their generations, then hands the whole deletion to
   * AgentService.clearing(ids, clear, reason) when an agent is present (it stops and holds the sessions), or runs
   * `clear` itself. `clear` emits session:deleted for each session, deepest children first (awaiting listeners),
   * runs the memory clear chain for all of them, and deletes the rows. A second call while one runs joins it.
   * Unknown session: AALIS_SESSION_UNKNOWN.
   */
  deleteSession(sessionId: string, options?: DeleteSessionOptions): Promise<DeleteSessionReport>;
}

declare module '@aalis/core' {
  interface EventMap {
    'session:created': { session: SessionInfo };
    /** `changes`: the fields that changed. */
    'session:updated': { session: SessionInfo; changes: string[] };
    /**
     * A session is being deleted (its data is cleared after every listener returned). `rootId` is the session
     * deleteSession was called for. The agent stops the session's running turn here.
     */
    'session:deleted': { sessionId: string; session: SessionInfo; rootId: string; reason?: string };
  }
}

export const sessionManager: ServiceDescriptor<SessionManagerService> =
  defineService<SessionManagerService>('sessionManager');
