// @aalis/api-session-manager: the session manager contract: sessions (kind, platform, venue, parent/children,
// origin, title, lastTurn), deletion generations and deleteSession through the agent's clearing chain.

export { sessionErrors } from './session-errors.js';
export {
  type LastTurn,
  SESSION_KINDS,
  type SessionFilter,
  type SessionInfo,
  type SessionInit,
  type SessionKind,
  type SessionPatch,
} from './session-info.js';
export {
  type DeleteSessionOptions,
  type DeleteSessionReport,
  type SessionManagerService,
  sessionManager,
} from './session-manager-service.js';
export { assertSessionId, assertValidLastTurn, assertValidPatch, assertValidSessionInit } from './validate-session.js';
