// Deleting a skill needs the person's word: skill_delete first only asks (the model tells the person what would go),
// and deletes when it is called again with confirm in a LATER turn of the same conversation that the same person
// takes part in — a model cannot confirm its own request within one turn. Kept in this process, bounded, ten minutes.
import { setBounded } from '@aalis/core';

/** A request waits at most this long for the person's yes. */
export const CONFIRM_WITHIN_MS = 10 * 60_000;
/** Requests waiting at most (the oldest go first). */
const MAX_PENDING = 1000;

interface Pending {
  person: string;
  turnId: string;
  at: number;
}

export class PendingDeletions {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly now: () => number = Date.now) {}

  private key(sessionId: string, skillId: string): string {
    return `${sessionId}\u0000${skillId}`;
  }

  ask(sessionId: string, skillId: string, person: string, turnId: string): void {
    const key = this.key(sessionId, skillId);
    setBounded(this.pending, key, { person, turnId, at: this.now() }, MAX_PENDING);
  }

  /**
   * Whether a deletion asked for earlier may go ahead now: same conversation, same person, a later turn, in time.
   * `missing` when nothing was asked (or it expired), `same-turn` when the yes cannot have come from the person yet.
   */
  confirm(
    sessionId: string,
    skillId: string,
    persons: readonly string[],
    turnId: string,
  ): 'ok' | 'missing' | 'same-turn' {
    const key = this.key(sessionId, skillId);
    const pending = this.pending.get(key);
    if (!pending || this.now() - pending.at > CONFIRM_WITHIN_MS || !persons.includes(pending.person)) {
      return 'missing';
    }
    if (pending.turnId === turnId) return 'same-turn';
    this.pending.delete(key);
    return 'ok';
  }
}
