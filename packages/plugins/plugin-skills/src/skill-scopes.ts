// Which skills a turn may use and where a skill it saves goes: a multi-party room's skills stay in that room, a
// private conversation's with that one person (the owner's accounts are one person), and `global` ones — only the
// owner shares a skill so — everywhere. So a procedure learnt in private never surfaces in a group or to someone else.
import type { SessionInfo } from '@aalis/api-session-manager';
import { GLOBAL_SCOPE, type SkillScope } from '@aalis/api-skills';
import type { Identity } from '@aalis/schema-message';

export type RootSession = Pick<SessionInfo, 'id' | 'kind' | 'platform' | 'venue' | 'originChat'>;

export interface TurnScopes {
  /** Where a skill saved in this turn goes; absent when no one person or room owns the conversation. */
  home?: SkillScope;
  /** The scopes whose skills this turn may use. */
  visible: SkillScope[];
}

/** A root read from a room session id (`<platform>:group|private:<id>`) when no session manager knows it. */
function rootFromId(sessionId: string): RootSession {
  const match = /^([^:]+):(group|private):(.+)$/.exec(sessionId);
  if (!match) return { id: sessionId, kind: 'direct', platform: 'unknown' };
  const [, platform = '', chat, venue] = match;
  return { id: sessionId, kind: 'room', platform, venue, originChat: { multiParty: chat === 'group' } };
}

export function homeScopeOf(
  root: RootSession,
  speakers: readonly Identity[],
  personOf: (identity: Identity) => string,
): SkillScope | undefined {
  if (root.kind === 'room' && root.originChat?.multiParty) return `room:${root.platform}:${root.venue ?? root.id}`;
  if (root.kind === 'room' && root.venue !== undefined) {
    return `private:${personOf({ platform: root.platform, userId: root.venue })}`;
  }
  const persons = new Set(speakers.map(personOf));
  return persons.size === 1 ? `private:${[...persons][0]}` : undefined;
}

export async function turnScopes({
  sessionId,
  speakers,
  rootOf,
  personOf,
}: {
  sessionId: string;
  speakers: readonly Identity[];
  rootOf(sessionId: string): Promise<RootSession | undefined>;
  personOf(identity: Identity): string;
}): Promise<TurnScopes> {
  const root = (await rootOf(sessionId).catch(() => undefined)) ?? rootFromId(sessionId);
  const home = homeScopeOf(root, speakers, personOf);
  return home === undefined ? { visible: [GLOBAL_SCOPE] } : { home, visible: [GLOBAL_SCOPE, home] };
}
