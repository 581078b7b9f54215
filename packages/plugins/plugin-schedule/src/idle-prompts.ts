// 空闲开话题: an opt-in per-session setting (idlePrompt, idleAfterMinutes). When a session has been quiet for the
// configured time after a turn, the host opens an idle turn (triggerType 'idle', not archived by the agent) with
// the prompt — once per quiet spell: only a turn that is not itself an idle turn arms the next one.

import type { SessionInfo } from '@aalis/api-session-manager';
import type { AnySessionField, SessionFieldsService } from '@aalis/api-session-settings';
import { type Logger, textRef } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';

export const IDLE_FIELD = { prompt: 'idlePrompt', afterMinutes: 'idleAfterMinutes' } as const;
export const IDLE_DEFAULT_MINUTES = 120;
export const IDLE_SOURCE = 'idle';

export function idleFields(): AnySessionField[] {
  return [
    {
      key: IDLE_FIELD.prompt,
      type: 'string',
      label: textRef('schedule.field.idlePrompt'),
      description: textRef('schedule.field.idlePrompt.description'),
      visibility: 'advanced',
      level: 'owner',
      default: '',
    },
    {
      key: IDLE_FIELD.afterMinutes,
      type: 'number',
      label: textRef('schedule.field.idleAfterMinutes'),
      description: textRef('schedule.field.idleAfterMinutes.description'),
      visibility: 'advanced',
      level: 'owner',
      default: IDLE_DEFAULT_MINUTES,
      validate: (value: number) =>
        Number.isFinite(value) && value > 0 ? undefined : textRef('schedule.field.positive'),
    },
  ];
}

interface Armed {
  /** When the last turn that was not an idle turn ended. */
  since: number;
  session?: Pick<SessionInfo, 'platform' | 'venue'>;
}

export interface IdleDeps {
  fields(): SessionFieldsService | undefined;
  session(sessionId: string): Promise<SessionInfo | undefined>;
  handleMessage(message: IncomingMessage): Promise<void>;
  logger: Logger;
  now?: () => number;
}

export class IdlePrompts {
  private readonly armed = new Map<string, Armed>();
  private readonly running = new Set<string>();

  constructor(private readonly deps: IdleDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** A turn ended in the session: a person's or an injection's turn arms the timer, an idle turn does not. */
  turnEnded(sessionId: string, idle: boolean): void {
    if (idle) return;
    this.armed.set(sessionId, { since: this.now() });
  }

  /** A turn started: the session is not quiet. */
  turnStarted(sessionId: string): void {
    const armed = this.armed.get(sessionId);
    if (armed) armed.since = Number.POSITIVE_INFINITY;
  }

  forget(sessionId: string): void {
    this.armed.delete(sessionId);
  }

  /** Opens the idle turns that are due (called by the scheduler's poll). */
  async check(): Promise<void> {
    const fields = this.deps.fields();
    if (!fields?.field(IDLE_FIELD.prompt)) return;
    const now = this.now();
    for (const [sessionId, armed] of this.armed) {
      if (!Number.isFinite(armed.since) || this.running.has(sessionId)) continue;
      const session = await this.deps.session(sessionId);
      if (!session || session.kind === 'child') {
        this.armed.delete(sessionId);
        continue;
      }
      const scope = { sessionId, platform: session.platform, venue: session.venue };
      const prompt = (await fields.get(scope, IDLE_FIELD.prompt)).value;
      if (typeof prompt !== 'string' || prompt.trim() === '') continue;
      const minutes = (await fields.get(scope, IDLE_FIELD.afterMinutes)).value;
      const after = (typeof minutes === 'number' && minutes > 0 ? minutes : IDLE_DEFAULT_MINUTES) * 60_000;
      if (now - armed.since < after) continue;
      // Once per quiet spell: the next real turn re-arms it.
      this.armed.delete(sessionId);
      this.running.add(sessionId);
      this.deps.logger.info('idle prompt opens a turn', { sessionId });
      void this.deps
        .handleMessage({
          sessionId,
          platform: session.platform,
          ...(session.venue !== undefined ? { venue: session.venue } : {}),
          sender: {},
          content: prompt.trim(),
          source: IDLE_SOURCE,
          triggerType: 'idle',
          timestamp: now,
        })
        .catch((error) => this.deps.logger.warn('idle turn failed', { sessionId, error: String(error) }))
        .finally(() => this.running.delete(sessionId));
    }
  }
}
