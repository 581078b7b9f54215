// The Memory page's requests (docs/session-protocol.md 「Memory」): what she remembers per person (profile facts),
// per place (skills) and what long-term memory recalled lately, searched, edited and deleted. The owner sees and
// edits everyone's; another account only its own: its person's facts, the skills of its private scope or saved by
// it, recalls in its own sessions. Reaching for anyone else's is refused (AALIS_WEBUI_FORBIDDEN), never answered empty.
import { type MemoryVectorService, memoryVector, personKeyOf, type RecalledMessage } from '@aalis/api-memory-vector';
import { GLOBAL_SCOPE, type Skill, type SkillsService, skills } from '@aalis/api-skills';
import { type ProfileFact, type UserProfileService, userProfile } from '@aalis/api-user-profile';
import { defineCatalogue } from '@aalis/core';
import type {
  Account,
  MemoryFactView,
  MemoryListResult,
  MemoryMessageView,
  MemoryRecallView,
  MemoryRequests,
  MemorySkillView,
} from '@aalis/session-client';
import { badParam, optionalString, requireString } from './params.js';
import type { Handler, Params, Routes } from './request-handler.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { canSee } from './session-access.js';

defineCatalogue({
  'zh-CN': { 'sessionServer.forbidden.memory': '这不是你的记忆，只有 owner 能看和改别人的' },
  en: { 'sessionServer.forbidden.memory': 'this memory is not yours; only an owner can see and change other people’s' },
});

/** Most of each kind one answer carries. */
const MAX_ITEMS = 200;
const MAX_QUERY_CHARS = 200;
const MAX_TEXT_CHARS = 20_000;

function profilesOf(deps: ServerDeps): UserProfileService | undefined {
  return deps.services.selected(userProfile)?.impl;
}
function skillsOf(deps: ServerDeps): SkillsService | undefined {
  return deps.services.selected(skills)?.impl;
}
function recallOf(deps: ServerDeps): MemoryVectorService | undefined {
  return deps.services.selected(memoryVector)?.impl;
}

function forbidden(deps: ServerDeps): never {
  throw serverErrors.AALIS_WEBUI_FORBIDDEN({ reason: deps.translate({ key: 'sessionServer.forbidden.memory' }) });
}

/** The account's person key: `owner` for an owner, `webui:<userId>` otherwise. */
function personOfAccount(deps: ServerDeps, account: Account): string {
  return personKeyOf(
    identityOf(account),
    (identity) => account.owner || (deps.authority.available && deps.authority.use.isOwner(identity)),
  );
}

function mayTouchSkill(account: Account, skill: Skill, own: string): boolean {
  return account.owner || skill.scope === `private:${own}` || skill.by === own;
}

const factView = (fact: ProfileFact): MemoryFactView => ({ ...fact });
const skillView = (skill: Skill): MemorySkillView => ({ ...skill });
const messageView = (hit: RecalledMessage): MemoryMessageView => ({
  messageId: hit.messageId,
  sessionId: hit.sessionId,
  audience: hit.audience,
  ...(hit.speaker !== undefined ? { speaker: hit.speaker } : {}),
  role: hit.role,
  at: hit.at,
  text: hit.text,
});

function kindParam(type: string, params: Record<string, unknown>): 'fact' | 'skill' {
  const kind = params.kind;
  if (kind !== 'fact' && kind !== 'skill') badParam(type, 'kind', 'oneOf', kind, { values: '"fact", "skill"' });
  return kind;
}

const listRequest: Handler<'memory.list'> = async (deps, account, params, { type }) => {
  const own = personOfAccount(deps, account);
  const wanted = optionalString(type, params, 'person', 300);
  const scope = optionalString(type, params, 'scope', 600);
  if (!account.owner && wanted !== undefined && wanted !== own) forbidden(deps);
  const person = wanted ?? own;
  const profiles = profilesOf(deps);
  const skillService = skillsOf(deps);
  const recall = recallOf(deps);

  const people = profiles ? await profiles.people({ limit: MAX_ITEMS }) : [];
  const visiblePeople = account.owner ? people : people.filter((entry) => entry.person === own);
  const facts = profiles ? await profiles.facts(person) : [];

  let visibleSkills: Skill[] = [];
  if (skillService) {
    const all = await skillService.list(
      account.owner ? { limit: 500 } : { scopes: [`private:${own}`, GLOBAL_SCOPE], limit: 500 },
    );
    visibleSkills = all.filter((skill) => mayTouchSkill(account, skill, own));
    if (!account.owner) {
      // Skills another account saved in a room are theirs too; they are found by who saved them.
      const rooms = (await skillService.list({ limit: 500 })).filter(
        (skill) => skill.by === own && !visibleSkills.some((seen) => seen.id === skill.id),
      );
      visibleSkills.push(...rooms);
    }
  }
  const scopes = [...new Set(visibleSkills.map((skill) => skill.scope))].sort();
  if (scope !== undefined && !account.owner && !scopes.includes(scope) && scope !== `private:${own}`) forbidden(deps);

  const result: MemoryListResult = {
    all: account.owner,
    person,
    people: visiblePeople,
    facts: facts.map(factView),
    scopes,
    skills: (scope === undefined ? visibleSkills : visibleSkills.filter((skill) => skill.scope === scope))
      .slice(0, MAX_ITEMS)
      .map(skillView),
    available: { profiles: profiles !== undefined, skills: skillService !== undefined, recall: recall !== undefined },
  };
  if (recall) {
    const records = await recall.recentRecalls({ limit: 200 });
    result.recalls = records
      .filter((record) => canSee(account, record.sessionId))
      .slice(0, 50)
      .map(
        (record): MemoryRecallView => ({
          sessionId: record.sessionId,
          at: record.at,
          terms: [...record.terms],
          // A recall in the account's own session may carry its own words from elsewhere, never another's private ones.
          items: record.items.map((item) => ({ ...item, matched: [...item.matched] })),
        }),
      );
    if (account.owner) {
      const status = await recall.status();
      result.index = {
        indexed: status.indexed,
        vectors: {
          state: status.vectors.state,
          embedded: status.vectors.embedded,
          ...(status.vectors.model !== undefined ? { model: status.vectors.model } : {}),
          ...(status.vectors.error
            ? { error: { code: status.vectors.error.code, message: deps.translate(status.vectors.error.text) } }
            : {}),
        },
      };
    }
  }
  return result;
};

const searchRequest: Handler<'memory.search'> = async (deps, account, params, { type }) => {
  const query = requireString(type, params, 'query', MAX_QUERY_CHARS);
  const limit = typeof params.limit === 'number' && params.limit > 0 ? Math.min(Math.floor(params.limit), 100) : 20;
  const own = personOfAccount(deps, account);
  const profiles = profilesOf(deps);
  const skillService = skillsOf(deps);
  const recall = recallOf(deps);
  const facts = profiles
    ? await profiles.search({ text: query, ...(account.owner ? {} : { persons: [own] }), limit })
    : [];
  const foundSkills = skillService
    ? (await skillService.search({ text: query, limit: 100 })).filter((skill) => mayTouchSkill(account, skill, own))
    : [];
  // Long-term memory as the account's own conversations would recall it: its private words and its words in rooms.
  const messages = recall
    ? (
        await recall.search({
          text: query,
          sessionId: `webui:${account.userId}:`,
          speakers: [identityOf(account)],
          limit,
        })
      )
        .filter((hit) => account.owner || hit.audience === `private:${own}` || canSee(account, hit.sessionId))
        .map(messageView)
    : [];
  return {
    facts: facts.map(factView),
    skills: foundSkills.slice(0, limit).map(skillView),
    messages,
  };
};

/** The item an update or delete names, with the service that holds it (AALIS_WEBUI_UNAVAILABLE when it does not run). */
function namedItem(deps: ServerDeps, account: Account, type: string, params: Params) {
  const kind = kindParam(type, params);
  const id = requireString(type, params, 'itemId', 200);
  const own = personOfAccount(deps, account);
  if (kind === 'fact') {
    const profiles = profilesOf(deps);
    if (!profiles) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'userProfile' });
    return { kind, id, own, profiles };
  }
  const skillService = skillsOf(deps);
  if (!skillService) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'skills' });
  return { kind, id, own, skills: skillService };
}

const updateRequest: Handler<'memory.update'> = async (deps, account, params, { type }) => {
  const item = namedItem(deps, account, type, params);
  const { id, own } = item;
  if (item.kind === 'fact') {
    const { profiles } = item;
    const text = requireString(type, params, 'text', MAX_TEXT_CHARS);
    const current = await profiles.get(id);
    if (current && !account.owner && current.person !== own) forbidden(deps);
    return { fact: factView(await profiles.update(id, text)) };
  }
  const skillService = item.skills;
  const name = optionalString(type, params, 'name', 200);
  const content = optionalString(type, params, 'text', MAX_TEXT_CHARS);
  if (name === undefined && content === undefined)
    badParam(type, 'text', 'nonEmptyString', params.text, { max: String(MAX_TEXT_CHARS) });
  const current = await skillService.get(id);
  if (current && !mayTouchSkill(account, current, own)) forbidden(deps);
  const skill = await skillService.update(id, {
    ...(name !== undefined ? { name } : {}),
    ...(content !== undefined ? { content } : {}),
  });
  return { skill: skillView(skill) };
};

const deleteRequest: Handler<'memory.delete'> = async (deps, account, params, { type }) => {
  const item = namedItem(deps, account, type, params);
  const { id, own } = item;
  if (item.kind === 'fact') {
    const { profiles } = item;
    const current = await profiles.get(id);
    if (!current) return { deleted: false, messages: 0 };
    if (!account.owner && current.person !== own) forbidden(deps);
    const gone = await profiles.forget([id]);
    return { deleted: gone.facts.length > 0, messages: gone.messages };
  }
  const skillService = item.skills;
  const current = await skillService.get(id);
  if (!current) return { deleted: false, messages: 0 };
  if (!mayTouchSkill(account, current, own)) forbidden(deps);
  return { deleted: await skillService.delete(id), messages: 0 };
};

export const MEMORY_ROUTES: Routes<keyof MemoryRequests> = {
  'memory.list': listRequest,
  'memory.search': searchRequest,
  'memory.update': updateRequest,
  'memory.delete': deleteRequest,
};
