// skill_save, skill_search and skill_delete: skills saved where the turn happens (its room, or its one person's
// private conversations; `shared` by the owner: everywhere), found among what this turn may use, deleted only by
// whoever saved them or the owner, and only after the person confirmed in a later message.

import { OWNER_PERSON } from '@aalis/api-memory-vector';
import { GLOBAL_SCOPE, type Skill, type SkillsService } from '@aalis/api-skills';
import { closedParameters, type Tool, type ToolCallContext, type ToolResult } from '@aalis/api-tools';
import { AalisError, type I18n, translatorOf } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import type { PendingDeletions } from './pending-deletions.js';
import type { TurnScopes } from './skill-scopes.js';

export const SAVE_TOOL = 'skill_save';
export const SEARCH_TOOL = 'skill_search';
export const DELETE_TOOL = 'skill_delete';

/** Most skills skill_search answers with. */
const SEARCH_LIMIT = 5;

export function skillTools({
  service,
  i18n,
  personOf,
  scopesOf,
  pending,
}: {
  service(): SkillsService;
  i18n: I18n;
  personOf(identity: Identity): string;
  scopesOf(sessionId: string, speakers: readonly Identity[]): Promise<TurnScopes>;
  pending: PendingDeletions;
}): Tool[] {
  const t = translatorOf(i18n);
  const refusal = (error: unknown): ToolResult => {
    if (AalisError.isInstance(error)) return { content: error.localized(i18n.locale), isError: true, code: error.code };
    throw error;
  };
  const personsOf = (context: ToolCallContext) => [...new Set(context.participants.map(personOf))];
  const mayDelete = (skill: Skill, persons: readonly string[]) =>
    persons.includes(OWNER_PERSON) ||
    (skill.scope !== GLOBAL_SCOPE &&
      ((skill.by !== undefined && persons.includes(skill.by)) ||
        persons.some((person) => skill.scope === `private:${person}`)));
  const find = async (wanted: string, scopes: readonly string[]) => {
    const byId = await service().get(wanted);
    if (byId && scopes.includes(byId.scope)) return byId;
    return (await service().list({ scopes, limit: 500 })).find((skill) => skill.name === wanted.trim());
  };
  return [
    {
      name: SAVE_TOOL,
      description: t('skills.tool.save'),
      parameters: closedParameters(
        {
          name: { type: 'string', minLength: 1, description: t('skills.tool.save.name') },
          content: { type: 'string', minLength: 1, description: t('skills.tool.save.content') },
          shared: { type: 'boolean', description: t('skills.tool.save.shared') },
        },
        ['name', 'content'],
      ),
      async handler(args, context) {
        const persons = personsOf(context);
        let scope: string | undefined;
        if (args.shared === true) {
          if (!persons.includes(OWNER_PERSON)) return { content: t('skills.sharedOwnerOnly'), isError: true };
          scope = GLOBAL_SCOPE;
        } else {
          scope = (await scopesOf(context.sessionId, context.participants)).home;
        }
        if (scope === undefined) return { content: t('skills.noHome'), isError: true };
        try {
          const skill = await service().save({
            name: String(args.name),
            content: String(args.content),
            scope,
            ...(persons.length === 1 && persons[0] !== undefined ? { by: persons[0] } : {}),
          });
          return t('skills.saved', { name: skill.name, scope: skill.scope });
        } catch (error) {
          return refusal(error);
        }
      },
    },
    {
      name: SEARCH_TOOL,
      description: t('skills.tool.search'),
      parameters: closedParameters(
        { query: { type: 'string', minLength: 1, description: t('skills.tool.search.query') } },
        ['query'],
      ),
      async handler(args, context) {
        const { visible } = await scopesOf(context.sessionId, context.participants);
        const hits = await service().search({ text: String(args.query), scopes: visible, limit: SEARCH_LIMIT });
        if (hits.length === 0) return t('skills.none');
        return [
          t('skills.found', { count: hits.length }),
          ...hits.map((skill) => `\n## ${skill.name} (id: ${skill.id})\n${skill.content}`),
        ].join('\n');
      },
    },
    {
      name: DELETE_TOOL,
      description: t('skills.tool.delete'),
      parameters: closedParameters(
        {
          skill: { type: 'string', minLength: 1, description: t('skills.tool.delete.skill') },
          confirm: { type: 'boolean', description: t('skills.tool.delete.confirm') },
        },
        ['skill'],
      ),
      async handler(args, context) {
        const wanted = String(args.skill);
        const { visible } = await scopesOf(context.sessionId, context.participants);
        const skill = await find(wanted, visible);
        if (!skill) return { content: t('skills.unknown', { skill: wanted.slice(0, 80) }), isError: true };
        const persons = personsOf(context);
        if (!mayDelete(skill, persons)) return { content: t('skills.notYours', { name: skill.name }), isError: true };
        if (args.confirm !== true) {
          const asking = persons.find((person) => mayDelete(skill, [person])) ?? persons[0] ?? '';
          pending.ask(context.sessionId, skill.id, asking, context.turnId);
          return t('skills.deleteAsk', { name: skill.name });
        }
        const answer = pending.confirm(context.sessionId, skill.id, persons, context.turnId);
        if (answer === 'same-turn') return { content: t('skills.confirmSameTurn'), isError: true };
        if (answer === 'missing') return { content: t('skills.confirmMissing'), isError: true };
        await service().delete(skill.id);
        return t('skills.deleted', { name: skill.name });
      },
    },
  ];
}
