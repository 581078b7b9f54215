// The audience of each session, remembered: a session's root (session manager, else read from a room session
// id) and, for a conversation with one person outside rooms, who that person is (learned from its first speaker).
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { Identity } from '@aalis/schema-message';
import { audienceOf, type IsOwner, isMultiPartyRoom, personOf, type RootSession, rootFromId } from './recall-scope.js';
import type { Audience } from './recall-store.js';

/** Sessions remembered at most (least recently used go first). */
const MAX_REMEMBERED = 10_000;

export class SessionAudiences {
  private readonly roots = new Map<string, RootSession>();
  private readonly persons = new Map<string, string>();

  constructor(
    private readonly options: {
      sessionManager: () => SessionManagerService | undefined;
      isOwner: IsOwner;
    },
  ) {}

  async rootOf(sessionId: string): Promise<RootSession> {
    const known = this.roots.get(sessionId);
    if (known) {
      this.roots.delete(sessionId);
      this.roots.set(sessionId, known);
      return known;
    }
    const manager = this.options.sessionManager();
    const root =
      (manager ? await manager.rootOf(sessionId).catch(() => undefined) : undefined) ?? rootFromId(sessionId);
    this.roots.set(sessionId, root);
    if (this.roots.size > MAX_REMEMBERED) this.roots.delete(this.roots.keys().next().value as string);
    return root;
  }

  /**
   * The audience of a session and whether it is a multi-party room. `speaker` (an account seen speaking in it)
   * teaches who a one-person conversation is with, the first time one is seen.
   */
  async audience(sessionId: string, speaker?: Identity): Promise<{ audience: Audience; multiParty: boolean }> {
    const root = await this.rootOf(sessionId);
    if (speaker && !isMultiPartyRoom(root) && !this.persons.has(root.id)) {
      this.persons.set(root.id, personOf(speaker, this.options.isOwner));
      if (this.persons.size > MAX_REMEMBERED) this.persons.delete(this.persons.keys().next().value as string);
    }
    return {
      audience: audienceOf(root, this.persons.get(root.id), this.options.isOwner),
      multiParty: isMultiPartyRoom(root),
    };
  }

  forget(sessionIds: readonly string[] | undefined): void {
    if (sessionIds === undefined) {
      this.roots.clear();
      this.persons.clear();
      return;
    }
    for (const id of sessionIds) {
      this.roots.delete(id);
      this.persons.delete(id);
    }
  }
}
