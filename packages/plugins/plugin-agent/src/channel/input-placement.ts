// The two ways an input that passed agent:input:before is placed: into this process's channel for its session
// (LocalPlacement: no storage to hand it over through), or into the session's durable queue, from which the process
// holding the session's lease places it (SessionOwners, cluster/session-owners.ts). The orchestrator asks the one it
// was given and never which one it is.
import type { AbortOptions } from '@aalis/api-agent';
import type { IncomingMessage } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { holdSession, type SessionHold, sweepAbandonedSessions } from '../cluster/session-lease.js';
import type { StopAnswer, StopRequest } from '../cluster/session-signals.js';
import type { Batch, PendingInput, RunningTurn, SessionChannel } from './session-channel.js';
import { keepAsContext } from './session-channels.js';

/** What a placement asks of the orchestrator: to run a batch that opened a turn here, and to apply a /stop. */
export interface LocalTurns {
  run(channel: SessionChannel, batch: Batch, generation: number): Promise<void>;
  stop(sessionId: string, request: StopRequest): Promise<StopAnswer>;
}

export interface InputPlacement {
  /**
   * Places an input (its session's channel already unheld): resolves once it settled — its turn ran here, it joined
   * or queued and settled, or another process answered it.
   */
  accept(message: IncomingMessage, generation: number, channel: SessionChannel): Promise<void>;
  /** The lease side of a turn about to run here: whether it may run, and what gives the lease back. */
  holdTurn(channel: SessionChannel, running: RunningTurn, inputs: readonly PendingInput[]): Promise<SessionHold>;
  /** A stop of a session another process runs: sent there, with whether inputs accepted here wait on it; undefined
   * when the session is this process's to stop. */
  abortElsewhere(sessionId: string, options: AbortOptions): boolean | undefined;
  /** A /stop of a session another process runs: asked there; undefined when it is this process's to answer. */
  stopElsewhere(sessionId: string, request: StopRequest): Promise<StopAnswer> | undefined;
  /** A clearing of these sessions began: what still waits for them outside this process's channels is dropped. */
  markCleared(sessionIds: readonly string[]): Promise<void>;
  /** The session's channel here was let go. */
  idle(sessionId: string): void;
  /** Shutdown begins: nothing more is taken; what waits in this process's channels goes back where it came from. */
  close(): void;
  /** The end of the drain: what this process still holds is given back. */
  handedBack(): Promise<void>;
  /**
   * Starts recovering sessions whose process died mid-turn (any live process does); returns the stopper, which
   * resolves once a recovery under way finished (before the storage closes).
   */
  startRecovery(): () => Promise<void>;
}

/** Without storage to hand inputs over through: each input goes into this process's channel for its session. */
export class LocalPlacement implements InputPlacement {
  constructor(
    private readonly deps: AgentDeps,
    private readonly turns: LocalTurns,
  ) {}

  async accept(message: IncomingMessage, generation: number, channel: SessionChannel): Promise<void> {
    this.deps.events.emit('agent:accepted', { message, durable: false });
    if (message.triggerType === 'ambient' && channel.idle) {
      // A room message that did not address her, while nothing runs: no turn; kept as room context.
      await keepAsContext(this.deps, message);
      return;
    }
    let resolveOpened!: (batch: Batch | undefined) => void;
    const opened = new Promise<Batch | undefined>((resolve) => {
      resolveOpened = resolve;
    });
    const pending: PendingInput = {
      message,
      settle: () => resolveOpened(undefined),
      open: (batch) => resolveOpened(batch),
    };
    const placement = channel.place(pending);
    const batch = placement === 'open' ? { inputs: [pending], fromQueue: false } : await opened;
    if (batch) await this.turns.run(channel, batch, generation);
  }

  holdTurn(channel: SessionChannel, running: RunningTurn, inputs: readonly PendingInput[]): Promise<SessionHold> {
    return holdSession(
      this.deps,
      channel.sessionId,
      running,
      inputs.map((input) => input.message),
    );
  }

  abortElsewhere(): undefined {
    return undefined;
  }

  stopElsewhere(): undefined {
    return undefined;
  }

  async markCleared(): Promise<void> {}

  idle(): void {}

  close(): void {}

  async handedBack(): Promise<void> {}

  startRecovery(): () => Promise<void> {
    return sweepAbandonedSessions(this.deps);
  }
}
