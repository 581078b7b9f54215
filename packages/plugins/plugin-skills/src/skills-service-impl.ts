// The skills service over a store: names and procedures checked and bounded (coded refusals), then stored.
import { type Skill, type SkillsService, skillsErrors } from '@aalis/api-skills';
import { queryTerms } from '@aalis/util-text-search';
import type { SkillStore } from './skill-store.js';
import { MAX_NAME_CHARS, type SkillsConfig } from './skills-config.js';

/** Most skills one search or list answers. */
const MAX_LISTED = 500;

function cleanName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

/** A procedure keeps its lines; trailing spaces and NULs go. */
function cleanContent(content: string): string {
  return content
    .replaceAll('\u0000', '')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

export function skillsServiceOf({
  store,
  config,
  newId,
  now = Date.now,
}: {
  store: SkillStore;
  config: Pick<SkillsConfig, 'maxSkills' | 'maxContentChars'>;
  newId(): string;
  now?: () => number;
}): SkillsService {
  const checked = (rawName: string, rawContent: string) => {
    const name = cleanName(rawName);
    if (name.length === 0 || name.length > MAX_NAME_CHARS) {
      throw skillsErrors.AALIS_SKILLS_NAME_INVALID({ max: MAX_NAME_CHARS, length: name.length });
    }
    const content = cleanContent(rawContent);
    if (content.length === 0) throw skillsErrors.AALIS_SKILLS_EMPTY({ name });
    if (content.length > config.maxContentChars) {
      throw skillsErrors.AALIS_SKILLS_TOO_LONG({ name, length: content.length, max: config.maxContentChars });
    }
    return { name, content };
  };
  const limit = (value: number | undefined, fallback: number) =>
    Math.min(Math.max(1, Math.floor(value ?? fallback)), MAX_LISTED);
  return {
    limits: { maxSkills: config.maxSkills, maxNameChars: MAX_NAME_CHARS, maxContentChars: config.maxContentChars },
    async save(request) {
      const { name, content } = checked(request.name, request.content);
      const at = now();
      const skill: Skill = {
        id: newId(),
        name,
        content,
        scope: request.scope,
        ...(request.by !== undefined ? { by: request.by } : {}),
        createdAt: at,
        updatedAt: at,
      };
      const saved = await store.save(skill, config.maxSkills);
      if (saved === 'full') throw skillsErrors.AALIS_SKILLS_FULL({ count: await store.count() });
      return saved;
    },
    async search({ text, scopes, limit: wanted }) {
      return store.search({ terms: queryTerms(text), ...(scopes ? { scopes } : {}), limit: limit(wanted, 10) });
    },
    async list(request = {}) {
      return store.list({ ...(request.scopes ? { scopes: request.scopes } : {}), limit: limit(request.limit, 100) });
    },
    get: (id) => store.get(id),
    async update(id, change) {
      const current = await store.get(id);
      if (!current) throw skillsErrors.AALIS_SKILLS_UNKNOWN({ id: id.slice(0, 64) });
      const { name, content } = checked(change.name ?? current.name, change.content ?? current.content);
      const updated = await store.update({ ...current, name, content, updatedAt: now() });
      if (updated === undefined) throw skillsErrors.AALIS_SKILLS_UNKNOWN({ id: id.slice(0, 64) });
      if (updated === 'conflict') {
        throw skillsErrors.AALIS_SKILLS_NAME_TAKEN({ name });
      }
      return updated;
    },
    delete: (id) => store.delete(id),
  };
}
