// The trigger phase's default rule. Inputs that already carry a triggerType (set by the platform, e.g. 'direct'
// for an @-mention or a reply to her, or by an injector) and injections (with a source) are left alone. Otherwise:
// a session that is not multi-party (per its root's originChat; without a session manager: not multi-party) is
// 'direct'; in a multi-party room, text naming her (configured names, case-insensitive substring) is 'direct',
// and anything else is dropped or passed on as 'ambient' per configuration.
import type { IncomingMessage } from '@aalis/schema-message';

export interface TriggerRules {
  /** Her names; a room message containing one is addressed to her. */
  names: readonly string[];
  /** What happens to room messages not addressed to her. */
  unaddressed: 'drop' | 'ambient';
}

export type TriggerVerdict = { action: 'keep' } | { action: 'set'; triggerType: string } | { action: 'drop' };

export function judgeTrigger({
  message,
  multiParty,
  rules,
}: {
  message: Pick<IncomingMessage, 'triggerType' | 'source' | 'content'>;
  multiParty: boolean;
  rules: TriggerRules;
}): TriggerVerdict {
  if (message.triggerType !== undefined || message.source !== undefined) return { action: 'keep' };
  if (!multiParty) return { action: 'set', triggerType: 'direct' };
  const text = message.content.toLowerCase();
  if (rules.names.some((name) => name.trim() !== '' && text.includes(name.trim().toLowerCase()))) {
    return { action: 'set', triggerType: 'direct' };
  }
  return rules.unaddressed === 'ambient' ? { action: 'set', triggerType: 'ambient' } : { action: 'drop' };
}
