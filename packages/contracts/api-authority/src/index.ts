// @aalis/api-authority: Contract of the authority service: owners, levels, turn participants.
export { authorityErrors } from './authority-errors.js';
export {
  type AuthorityService,
  authority,
  type LevelEntry,
  type SetLevelRequest,
} from './authority-service.js';
export { authorisedIdentityOf, type Caller, NOBODY, sameIdentity } from './caller.js';
export { type InboundOrigin, type OriginTurn, originTurnOf } from './origin-turn-of.js';
export {
  describeRequiredLevel,
  isLevel,
  isRequiredLevel,
  meetsLevel,
  type RequiredLevel,
} from './required-level.js';
