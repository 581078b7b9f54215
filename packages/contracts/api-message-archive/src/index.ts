// @aalis/api-message-archive: the message archive contract and the one implementation of sender prefixes and time
// annotations (pure functions the agent also calls when the archive is absent).
export { archiveCatalogue } from './archive-catalogue.js';
export { archiveErrors } from './archive-errors.js';
export { type ArchivedIncomingInput, archivedIncoming, assertArchivableInput } from './archived-incoming.js';
export { type BuildIncomingContentInput, buildIncomingContent } from './build-incoming-content.js';
export { assertTimeZone, DEFAULT_TIME_ZONE, formatArchiveTime } from './format-archive-time.js';
export {
  type ArchiveIncomingOptions,
  type MessageArchiveService,
  messageArchive,
} from './message-archive-service.js';
export {
  isPrivateSession,
  type SpeakerOfInput,
  type SpeakerSession,
  sanitizeName,
  speakerOf,
} from './speaker-of.js';
export { type SpeakerOfIncomingInput, speakerIdentityOf, speakerOfIncoming } from './speaker-of-incoming.js';
