// @aalis/plugin-skills: skills (技能, the `skills` bucket of token:usage) — procedures she saves for reuse with
// skill_save, finds with skill_search and deletes with skill_delete once the person confirmed; bounded in number
// and size; the ones relevant to a turn's input come back at turn-context. SQLite or PostgreSQL.
import { randomUUID } from 'node:crypto';
import '@aalis/api-agent';
import { authority } from '@aalis/api-authority';
import { contributions } from '@aalis/api-contributions';
import { personKeyOf } from '@aalis/api-memory-vector';
import { sessionManager } from '@aalis/api-session-manager';
import { skills } from '@aalis/api-skills';
import { openStore, storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { config, definePlugin, i18n, optional, provide, textRef } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { PendingDeletions } from './pending-deletions.js';
import { postgresSkillStore } from './postgres-skill-store.js';
import { turnScopes } from './skill-scopes.js';
import { skillTools } from './skill-tools.js';
import { skillsConfigSchema } from './skills-config.js';
import { skillsContribution } from './skills-contribution.js';
import { skillsServiceOf } from './skills-service-impl.js';
import { sqliteSkillStore } from './sqlite-skill-store.js';
import './skills-texts.js';

export { postgresSkillStore } from './postgres-skill-store.js';
export { homeScopeOf, turnScopes } from './skill-scopes.js';
export type { SkillStore } from './skill-store.js';
export { DELETE_TOOL, SAVE_TOOL, SEARCH_TOOL } from './skill-tools.js';
export { type SkillsConfig, skillsConfigSchema } from './skills-config.js';
export { skillsServiceOf } from './skills-service-impl.js';
export { sqliteSkillStore } from './sqlite-skill-store.js';

export const skillsPlugin = definePlugin({
  name: '@aalis/plugin-skills',
  provides: [skills],
  uses: {
    config,
    i18n,
    provide,
    storage,
    tools: optional(tools),
    contributions: optional(contributions),
    sessionManager: optional(sessionManager),
    authority: optional(authority),
  },
  config: skillsConfigSchema,
  async apply(handles) {
    const settings = handles.config.use;
    const store = await openStore(handles.storage.use, { sqlite: sqliteSkillStore, postgres: postgresSkillStore });
    const service = skillsServiceOf({ store, config: settings, newId: randomUUID });
    handles.provide.use.service(skills, service);

    const personOf = (identity: Identity) =>
      personKeyOf(identity, (candidate) => handles.authority.available && handles.authority.use.isOwner(candidate));
    const scopesOf = (sessionId: string, speakers: readonly Identity[]) =>
      turnScopes({
        sessionId,
        speakers,
        personOf,
        rootOf: async (id) => (handles.sessionManager.available ? handles.sessionManager.use.rootOf(id) : undefined),
      });
    if (handles.tools.available) {
      for (const tool of skillTools({
        service: () => service,
        i18n: handles.i18n.use,
        personOf,
        scopesOf,
        pending: new PendingDeletions(),
      })) {
        handles.tools.use.register(tool);
      }
    }
    const t = (key: string) => handles.i18n.use.t(textRef(key));
    handles.contributions.use.contribute(
      'agent:prompt',
      skillsContribution({
        scopesOf: async (sessionId, speakers) => (await scopesOf(sessionId, speakers)).visible,
        search: (text, scopes, limit) => service.search({ text, scopes, limit }),
        header: () => `${t('skills.header')}\n${t('skills.preamble')}`,
        limits: () => ({ maxPerTurn: settings.maxPerTurn, maxTokens: settings.maxTokens }),
      }),
    );
  },
});

export default skillsPlugin;
