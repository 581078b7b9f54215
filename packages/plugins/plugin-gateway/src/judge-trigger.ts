// The trigger phase's rule. Inputs that already carry a triggerType (set by the platform, e.g. 'direct' for an
// @-mention or a reply to her, or by an injector) and injections (with a source) are left alone, except a poke
// ('poke', set by platforms that have one), which addresses her when the policy says so. Otherwise: a session that
// is not multi-party (per its root's originChat; without a session manager: not multi-party) is 'direct'; in a
// multi-party room, text naming her (names and nicknames) or holding a keyword (case-insensitive substring) is
// 'direct'; unaddressed chatter is joined now and then ('join': opens a turn without counting as addressed) when
// the policy's chance and interval allow, and otherwise dropped or passed on as 'ambient'.
import type { IncomingMessage } from '@aalis/schema-message';

/** The triggerType a platform sets for a poke (QQ's 戳一戳); the trigger phase decides what it becomes. */
export const POKE_TRIGGER = 'poke';
/** The triggerType of unaddressed chatter she joins by chance: it opens a turn but did not address her. */
export const JOIN_TRIGGER = 'join';

export interface TriggerRules {
  /** Her names and nicknames; a room message containing one is addressed to her. */
  names: readonly string[];
  /** Words that address her like her name does. */
  keywords?: readonly string[];
  /** Whether a poke addresses her (default true). */
  poke?: boolean;
  /** What happens to room messages not addressed to her. */
  unaddressed: 'drop' | 'ambient';
  /** Chance (0–1) of joining an unaddressed room message; 0 = never (the default). */
  joinChance?: number;
  /** The shortest time between two joins in one room. */
  joinIntervalMs?: number;
}

export type TriggerVerdict = { action: 'keep' } | { action: 'set'; triggerType: string } | { action: 'drop' };

const containsAny = (text: string, words: readonly string[] | undefined): boolean =>
  (words ?? []).some((word) => word.trim() !== '' && text.includes(word.trim().toLowerCase()));

export function judgeTrigger({
  message,
  multiParty,
  rules,
  lastJoinAt,
  now = Date.now(),
  random = Math.random,
}: {
  message: Pick<IncomingMessage, 'triggerType' | 'source' | 'content'>;
  multiParty: boolean;
  rules: TriggerRules;
  /** When she last joined unaddressed chatter in this room (undefined: never). */
  lastJoinAt?: number | undefined;
  now?: number;
  random?: () => number;
}): TriggerVerdict {
  if (message.triggerType === POKE_TRIGGER) {
    return rules.poke === false ? { action: 'set', triggerType: 'ambient' } : { action: 'set', triggerType: 'direct' };
  }
  if (message.triggerType !== undefined || message.source !== undefined) return { action: 'keep' };
  if (!multiParty) return { action: 'set', triggerType: 'direct' };
  const text = message.content.toLowerCase();
  if (containsAny(text, rules.names) || containsAny(text, rules.keywords)) {
    return { action: 'set', triggerType: 'direct' };
  }
  const chance = rules.joinChance ?? 0;
  if (
    chance > 0 &&
    (lastJoinAt === undefined || now - lastJoinAt >= (rules.joinIntervalMs ?? 0)) &&
    random() < chance
  ) {
    return { action: 'set', triggerType: JOIN_TRIGGER };
  }
  return rules.unaddressed === 'ambient' ? { action: 'set', triggerType: 'ambient' } : { action: 'drop' };
}
