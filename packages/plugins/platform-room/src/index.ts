// @aalis/platform-room: what every chat-room platform adapter (OneBot v11, Telegram …) does the same way.

export { CachedToken, type FetchedToken } from './cached-token.js';
export {
  type CallbackServerOptions,
  callbackServer,
  closeServer,
  type ListenWhileHeldOptions,
  listenWhileHeld,
  readCallbackBody,
} from './callback-server.js';
export { type ChatMarkup, decodeMarkedEntities, markdownToChatMarkup } from './chat-markup.js';
export {
  type HoldConnectionOptions,
  holdConnection,
  type ReconnectOptions,
  reconnectWhile,
} from './connection-lease.js';
export { deliverToRoom, type RoomTarget } from './deliver-to-room.js';
export { type FetchAttachmentOptions, fetchFileAttachment, fetchImageAttachment } from './fetch-attachment.js';
export { type InboundContentOptions, type InboundFile, inboundContent } from './inbound-content.js';
export { inboundLimits, type RoomLimitsSettings } from './inbound-limits.js';
export { InboundOrder } from './inbound-order.js';
export {
  type ConnectionContext,
  type ConnectOutcome,
  type KeepConnectedOptions,
  type KeepListeningOptions,
  keepConnected,
  keepListening,
} from './keep-connected.js';
export {
  type AnswerToolOptions,
  MAX_REQUEST_NOTE_CHARS,
  newRequestId,
  OwnerRequests,
  type OwnerRequestsOptions,
  ownerRequestsOptions,
  requestNote,
} from './owner-requests.js';
export { pause } from './pause.js';
export {
  MAX_PENDING,
  memoryPendingRequests,
  type PendingRequest,
  type PendingRequestStore,
  pendingRequestsOf,
  postgresPendingRequests,
  sqlitePendingRequests,
} from './pending-requests.js';
export {
  MAX_ANSWER_BYTES,
  type PlatformAnswer,
  PlatformAnswerTooLargeError,
  type PlatformRequest,
  PlatformTimeoutError,
  platformAgents,
  platformRequest,
} from './platform-request.js';
export {
  type PlatformStateReport,
  type PlatformStateReportOptions,
  type PlatformStateUpdate,
  reportPlatformState,
  shownEndpoint,
  stateError,
} from './platform-state-report.js';
export { requireSettings } from './require-settings.js';
export { roomAdapterUses } from './room-adapter-uses.js';
export { sectionHasText } from './room-config.js';
export { roomErrors } from './room-errors.js';
export {
  type RoomInboundContext,
  type RoomInboundOptions,
  type RoomInboundPort,
  type RoomMessage,
  roomInbound,
} from './room-inbound.js';
export { roomLimitsShape } from './room-limits-schema.js';
export { RoomMemory } from './room-memory.js';
export { type RoomRegistration, roomRegistration } from './room-registration.js';
export {
  type ChatType,
  ensureRoomSession,
  parseRoomSessionId,
  type RoomInbound,
  roomIncoming,
  roomSessionId,
} from './room-session.js';
export { type RoomTurnsOptions, wireRoomTurns } from './room-turns.js';
export { type RunConnectionOptions, runConnection } from './run-connection.js';
