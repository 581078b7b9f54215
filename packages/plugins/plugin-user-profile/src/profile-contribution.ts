// The profile block: the facts of each person speaking in this turn, after all history (turn-context), so the
// cached prefix stays as it is; nothing for people not speaking, and nothing for injections.
import type { PromptContributionSpec } from '@aalis/api-agent';
import { authorisedIdentityOf } from '@aalis/api-authority';
import type { Identity } from '@aalis/schema-message';
import type { ProfileStore } from './profile-store.js';

export function profileContribution({
  store,
  personOf,
  header,
  nameOf,
}: {
  store: ProfileStore;
  personOf(identity: Identity): string;
  /** The block's first lines. */
  header(): string;
  /** How a speaker is named in the block. */
  nameOf(identity: Identity, displayName: string | undefined): string;
}): PromptContributionSpec {
  return {
    id: 'profiles',
    anchor: 'turn-context',
    async build(view) {
      if (view.dryRun) return undefined;
      const seen = new Set<string>();
      const parts: string[] = [];
      for (const input of view.inputs) {
        const identity = authorisedIdentityOf(input.message);
        if (!identity) continue;
        const person = personOf(identity);
        if (seen.has(person)) continue;
        seen.add(person);
        const facts = await store.facts(person);
        if (facts.length === 0) continue;
        const name = nameOf(identity, input.message.sender.displayName);
        parts.push([`${name}:`, ...facts.map((fact) => `- ${JSON.stringify(fact.fact)}`)].join('\n'));
      }
      return parts.length === 0 ? undefined : [header(), ...parts].join('\n');
    },
  };
}
