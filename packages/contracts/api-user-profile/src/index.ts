// @aalis/api-user-profile: the profiles (档案) contract — facts about each person, the `userProfile` service and its
// coded errors. Implemented by @aalis/plugin-user-profile.

export { profileErrors } from './profile-errors.js';
export { MAX_FACT_CHARS, MAX_FACTS_PER_PERSON, type ProfileFact, type ProfilePerson } from './profile-fact.js';
export { type UserProfileService, userProfile } from './user-profile-service.js';
