// @aalis/plugin-user-profile: what she knows about each person (档案). Facts are kept by the memory_remember tool
// for the turn's speaker, given back at turn-context whenever that person speaks, and forgotten by memory_forget —
// from the profile and, through long-term memory, from every index of what they said.
import { randomUUID } from 'node:crypto';
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { contributions } from '@aalis/api-contributions';
import { memoryVector, personKeyOf } from '@aalis/api-memory-vector';
import { storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { definePlugin, i18n, optional, s, textRef } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { postgresProfileStore } from './postgres-profile-store.js';
import { profileContribution } from './profile-contribution.js';
import { profileTools } from './profile-tools.js';
import { sqliteProfileStore } from './sqlite-profile-store.js';
import './profile-texts.js';

export type { ProfileFact, ProfileStore } from './profile-store.js';
export { FORGET_TOOL, REMEMBER_TOOL } from './profile-tools.js';

export const userProfilePlugin = definePlugin({
  name: '@aalis/plugin-user-profile',
  uses: {
    i18n,
    storage,
    tools,
    contributions: optional(contributions),
    authority: optional(authority),
    memoryVector: optional(memoryVector),
  },
  config: s
    .object({})
    .describe('Profiles: facts about each person, kept by memory_remember, forgotten by memory_forget.'),
  async apply(handles) {
    const store =
      handles.storage.use.engine === 'postgres'
        ? await postgresProfileStore(handles.storage.use.postgres())
        : sqliteProfileStore(handles.storage.use.database());
    const personOf = (identity: Identity) =>
      personKeyOf(identity, (candidate) => handles.authority.available && handles.authority.use.isOwner(candidate));
    const t = (key: string) => handles.i18n.use.t(textRef(key));
    for (const tool of profileTools({
      store,
      i18n: handles.i18n.use,
      personOf,
      memory: () => (handles.memoryVector.available ? handles.memoryVector.use : undefined),
      newId: randomUUID,
    })) {
      handles.tools.use.register(tool);
    }
    handles.contributions.use.contribute(
      'agent:prompt',
      profileContribution({
        store,
        personOf,
        header: () => `${t('userProfile.header')}\n${t('userProfile.preamble')}`,
        nameOf: (identity, displayName) =>
          displayName ? `${displayName} (${identity.userId})` : `${identity.platform}:${identity.userId}`,
      }),
    );
  },
});

export default userProfilePlugin;
