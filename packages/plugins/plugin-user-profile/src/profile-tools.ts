// memory_remember and memory_forget: facts about the speaker of the turn (never about someone else), and
// forgetting that reaches long-term memory's index too.
import type { MemoryVectorService } from '@aalis/api-memory-vector';
import { closedParameters, type Tool, type ToolCallContext } from '@aalis/api-tools';
import type { UserProfileService } from '@aalis/api-user-profile';
import { type I18n, translatorOf } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import { cleanFact } from './profile-service-impl.js';
import { MAX_FACT_CHARS, type ProfileStore } from './profile-store.js';

export const REMEMBER_TOOL = 'memory_remember';
export const FORGET_TOOL = 'memory_forget';

/** The one speaker a call acts for: the turn's single participant (the owner's accounts count as one). */
function speakerOf(context: ToolCallContext): Identity | undefined {
  return context.participants.length === 1 ? context.participants[0] : undefined;
}

export function profileTools({
  store,
  service,
  i18n,
  personOf,
  memory,
}: {
  store: ProfileStore;
  service: UserProfileService;
  i18n: I18n;
  personOf(identity: Identity): string;
  memory(): MemoryVectorService | undefined;
}): Tool[] {
  const t = translatorOf(i18n);
  return [
    {
      name: REMEMBER_TOOL,
      description: t('userProfile.tool.remember'),
      parameters: closedParameters(
        { fact: { type: 'string', minLength: 1, description: t('userProfile.tool.remember.fact') } },
        ['fact'],
      ),
      async handler(args, context) {
        const speaker = speakerOf(context);
        if (!speaker) return { content: t('userProfile.noSpeaker'), isError: true };
        const fact = cleanFact(String(args.fact));
        if (fact.length > MAX_FACT_CHARS) {
          return { content: t('userProfile.tooLong', { length: fact.length, max: MAX_FACT_CHARS }), isError: true };
        }
        const kept = await service.remember({ person: personOf(speaker), fact, source: 'tool' });
        return t('userProfile.remembered', { fact: kept.fact });
      },
    },
    {
      name: FORGET_TOOL,
      description: t('userProfile.tool.forget'),
      parameters: closedParameters({ about: { type: 'string', description: t('userProfile.tool.forget.about') } }),
      async handler(args, context) {
        const speaker = speakerOf(context);
        if (!speaker) return { content: t('userProfile.noSpeaker'), isError: true };
        const about = typeof args.about === 'string' && args.about.trim() !== '' ? args.about.trim() : undefined;
        const facts = await store.forget(personOf(speaker), about);
        const service = memory();
        const messages =
          about !== undefined && service
            ? await service.forgetSaidBy({ speaker, text: about, sessionId: context.sessionId })
            : 0;
        return t('userProfile.forgot', { facts: facts.length, messages });
      },
    },
  ];
}
