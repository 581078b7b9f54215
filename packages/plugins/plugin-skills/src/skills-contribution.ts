// The skills block: the skills most relevant to this turn's input (full-text match over what the turn may use), at
// turn-context after all history so the cached prefix stays as it is, counted in the `skills` bucket of
// token:usage; bounded in number and tokens.
import type { PromptContributionSpec } from '@aalis/api-agent';
import { authorisedIdentityOf } from '@aalis/api-authority';
import type { SkillHit, SkillScope } from '@aalis/api-skills';
import { estimateTextTokens } from '@aalis/context-budget';
import type { Identity } from '@aalis/schema-message';

export function renderSkill(skill: Pick<SkillHit, 'name' | 'content'>): string {
  return `## ${skill.name}\n${skill.content}`;
}

export function skillsContribution({
  scopesOf,
  search,
  header,
  limits,
}: {
  scopesOf(sessionId: string, speakers: readonly Identity[]): Promise<readonly SkillScope[]>;
  search(text: string, scopes: readonly SkillScope[], limit: number): Promise<SkillHit[]>;
  header(): string;
  limits(): { maxPerTurn: number; maxTokens: number };
}): PromptContributionSpec {
  return {
    id: 'skills',
    anchor: 'turn-context',
    category: 'skills',
    async build(view) {
      const { maxPerTurn, maxTokens } = limits();
      if (view.dryRun || view.inputs.length === 0 || maxPerTurn === 0) return undefined;
      const text = view.inputs.map((input) => input.message.content).join('\n');
      const speakers = view.inputs.flatMap((input) => {
        const identity = authorisedIdentityOf(input.message);
        return identity ? [identity] : [];
      });
      const hits = await search(text, await scopesOf(view.sessionId, speakers), maxPerTurn);
      const head = header();
      let spent = estimateTextTokens(head);
      const parts: string[] = [];
      for (const hit of hits) {
        const part = renderSkill(hit);
        const cost = estimateTextTokens(part) + 1;
        if (spent + cost > maxTokens) continue;
        spent += cost;
        parts.push(part);
      }
      return parts.length === 0 ? undefined : [head, ...parts].join('\n\n');
    },
  };
}
