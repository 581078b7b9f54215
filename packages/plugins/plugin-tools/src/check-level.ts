// Whether a turn's participants may run a tool: every participant must meet the tool's level (anyone in the turn
// could have asked for the call). Without the authority service everyone is nobody (level 0, not an owner).
import { type AuthorityService, describeRequiredLevel, meetsLevel, type RequiredLevel } from '@aalis/api-authority';
import type { Identity } from '@aalis/schema-message';

export type LevelCheck = { ok: true } | { ok: false; actual: string };

export function checkLevel({
  required,
  participants,
  authority,
}: {
  required: RequiredLevel | undefined;
  participants: readonly Identity[];
  authority: AuthorityService | undefined;
}): LevelCheck {
  if (required === undefined || required === 0) return { ok: true };
  if (participants.length === 0) return { ok: false, actual: 'nobody (level 0)' };
  const below: string[] = [];
  for (const identity of participants) {
    const caller = authority?.callerOf(identity) ?? { isOwner: false, level: 0 };
    if (!meetsLevel({ level: caller.level, isOwner: caller.isOwner, required })) {
      below.push(`${identity.platform}:${identity.userId} (level ${describeRequiredLevel(caller.level)})`);
    }
  }
  return below.length === 0 ? { ok: true } : { ok: false, actual: below.join(', ') };
}
