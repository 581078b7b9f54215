// @aalis/plugin-user-profile: what she knows about each person (档案). Facts are kept by the memory_remember tool
// for the turn's speaker (and, when plugins.user-profile.extraction is set, by an extraction pass after turns),
// given back at turn-context whenever that person speaks, and forgotten by memory_forget or the Memory page — from
// the profile and, through long-term memory, from every index of what they said.
import { randomUUID } from 'node:crypto';
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { contributions } from '@aalis/api-contributions';
import { hooks } from '@aalis/api-hooks';
import { llm } from '@aalis/api-llm';
import { memoryVector, OWNER_PERSON, personKeyOf } from '@aalis/api-memory-vector';
import { openStore, storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { type ProfileFact, userProfile } from '@aalis/api-user-profile';
import { config, definePlugin, i18n, lifecycle, logger, optional, provide, textRef } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { postgresProfileStore } from './postgres-profile-store.js';
import { profileContribution } from './profile-contribution.js';
import { ProfileExtraction } from './profile-extraction.js';
import { profileServiceOf } from './profile-service-impl.js';
import { profileTools } from './profile-tools.js';
import { sqliteProfileStore } from './sqlite-profile-store.js';
import { userProfileConfigSchema } from './user-profile-config.js';
import './profile-texts.js';

export type { ProfileStore } from './profile-store.js';
export { FORGET_TOOL, REMEMBER_TOOL } from './profile-tools.js';
export { userProfileConfigSchema } from './user-profile-config.js';

export const userProfilePlugin = definePlugin({
  name: '@aalis/plugin-user-profile',
  provides: [userProfile],
  uses: {
    config,
    i18n,
    logger,
    lifecycle,
    provide,
    storage,
    tools,
    contributions: optional(contributions),
    hooks: optional(hooks),
    llm: optional(llm),
    authority: optional(authority),
    memoryVector: optional(memoryVector),
  },
  config: userProfileConfigSchema,
  async apply(handles) {
    const store = await openStore(handles.storage.use, { sqlite: sqliteProfileStore, postgres: postgresProfileStore });
    const isOwner = (candidate: Identity) => handles.authority.available && handles.authority.use.isOwner(candidate);
    const personOf = (identity: Identity) => personKeyOf(identity, isOwner);
    /** An account that is this person, for long-term memory's forgetting (the owner: any of the owner's accounts). */
    const identityOfPerson = (person: string): Identity | undefined => {
      if (person === OWNER_PERSON) return handles.authority.available ? handles.authority.use.owners()[0] : undefined;
      const colon = person.indexOf(':');
      return colon > 0 ? { platform: person.slice(0, colon), userId: person.slice(colon + 1) } : undefined;
    };
    const memory = () => (handles.memoryVector.available ? handles.memoryVector.use : undefined);
    const service = profileServiceOf({
      store,
      newId: randomUUID,
      async forgetSaid(fact: ProfileFact) {
        const speaker = identityOfPerson(fact.person);
        const index = memory();
        if (!speaker || !index) return 0;
        // The scope of the search is the person's own words (forgetSaidBy keeps to them); no session adds to it.
        return index.forgetSaidBy({ speaker, text: fact.fact, sessionId: '' });
      },
    });
    handles.provide.use.service(userProfile, service);

    const t = (key: string) => handles.i18n.use.t(textRef(key));
    for (const tool of profileTools({ store, service, i18n: handles.i18n.use, personOf, memory })) {
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

    const extractionSettings = handles.config.use.extraction;
    if (extractionSettings?.enabled && handles.hooks.available) {
      const extraction = new ProfileExtraction({
        settings: extractionSettings,
        chat: (request, options) => handles.llm.use.chat(request, options),
        service,
        personOf,
        texts: () => ({
          instructions: t('userProfile.extraction.instructions'),
          knownTitle: t('userProfile.extraction.known'),
          turnTitle: t('userProfile.extraction.turn'),
          herLabel: t('userProfile.extraction.her'),
        }),
        log: handles.logger.use,
      });
      handles.hooks.use.middleware('agent:turn:after', async (turn, next) => {
        await next();
        if (handles.llm.available) extraction.turnEnded(turn);
      });
      handles.lifecycle.use.onDispose(() => extraction.stop());
    }
  },
});

export default userProfilePlugin;
