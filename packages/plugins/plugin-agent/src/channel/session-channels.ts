// The channels of this process's sessions: one per session with a turn, a queue or a hold (an idle one is let go),
// and the holds a clearing of every session puts on them all.
import type { IncomingMessage } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { routeLine } from '../log-format.js';
import { SessionChannel } from './session-channel.js';
import { markUnstored } from './unstored-inputs.js';

/** The route line's label of each placement a channel logs. */
const ROUTE_LABELS = {
  join: '待插入',
  queue: '排队',
  open: '开轮',
  joined: '插入',
  opened: '开轮',
  released: '放掉',
} as const;

/** The session's generation now: a deletion that began since an input arrived bumped it. */
export function generationOf(deps: AgentDeps, sessionId: string): number {
  return deps.sessionManager.available ? deps.sessionManager.use.generationOf(sessionId) : 0;
}

export class SessionChannels {
  private readonly channels = new Map<string, SessionChannel>();
  private globalHolds = 0;
  private globalRelease: Promise<void> = Promise.resolve();
  private releaseGlobal: (() => void) | undefined;

  /** `onIdle`: a session's channel was let go (nothing runs or waits for it here). */
  constructor(
    private readonly deps: AgentDeps,
    private readonly onIdle: (sessionId: string) => void,
  ) {}

  /** The session's channel if one exists now. */
  peek(sessionId: string): SessionChannel | undefined {
    return this.channels.get(sessionId);
  }

  all(): SessionChannel[] {
    return [...this.channels.values()];
  }

  /** The session's channel, made if there is none. */
  get(sessionId: string): SessionChannel {
    let channel = this.channels.get(sessionId);
    if (!channel) {
      const deps = this.deps;
      channel = new SessionChannel(sessionId, {
        archiveReleased: async (messages) => {
          if (!deps.messageArchive.available) return;
          for (const message of messages) {
            if (message.triggerType === 'idle') continue;
            await deps.messageArchive.use
              .archiveIncoming(message)
              .catch((error: unknown) => deps.log.warn('archiving a released input failed', { error: String(error) }));
          }
        },
        queueChanged: (id, waiting, dispositions) =>
          deps.events.emit('agent:queue', { sessionId: id, waiting, dispositions }),
        log: ({ kind, message, turnId }) => {
          if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: ROUTE_LABELS[kind], message, turnId }));
        },
      });
      this.channels.set(sessionId, channel);
    }
    return channel;
  }

  /**
   * The session's channel once neither it nor every session is held. Fetched again after each wait: an idle
   * channel may have been let go meanwhile, and a fresh one must not run beside it.
   */
  async unheld(sessionId: string): Promise<SessionChannel> {
    for (;;) {
      while (this.globalHolds > 0) await this.globalRelease;
      const channel = this.get(sessionId);
      if (!channel.held) return channel;
      await channel.whenUnheld();
    }
  }

  /** An idle channel holds nothing: drop it, so the map only keeps sessions with a turn, a queue or a hold. */
  releaseIfIdle(channel: SessionChannel): void {
    if (!channel.idle) return;
    if (this.channels.get(channel.sessionId) === channel) this.channels.delete(channel.sessionId);
    this.onIdle(channel.sessionId);
  }

  holdAll(): void {
    if (this.globalHolds === 0) {
      this.globalRelease = new Promise((resolve) => {
        this.releaseGlobal = resolve;
      });
    }
    this.globalHolds++;
  }

  releaseAll(): void {
    this.globalHolds--;
    if (this.globalHolds === 0) this.releaseGlobal?.();
  }
}

/** Archives an ambient input without a turn id: the next turn reads it from the history with its sender. */
export async function keepAsContext(deps: AgentDeps, message: IncomingMessage): Promise<void> {
  if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: '留作上下文', message }));
  if (!deps.messageArchive.available) return;
  await deps.messageArchive.use.archiveIncoming(message).catch((error: unknown) => {
    markUnstored(message);
    deps.log.warn('archiving a room message as context failed', { error: String(error) });
  });
}
