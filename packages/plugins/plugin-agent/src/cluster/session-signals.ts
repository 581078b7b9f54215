// Stops across processes: a stop asked of a process that does not run the session goes to the one that does as a signal
// of the session's hand-over name (storage.handOver().signal, NOTIFY on PostgreSQL); a /stop waits for the owner's
// answer on a reply name of its own. The owner applies both by its own channel's rules.
import { randomUUID } from 'node:crypto';
import type { AbortOptions } from '@aalis/api-agent';
import type { HandOverService } from '@aalis/api-storage';
import type { Identity } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { SessionChannel } from '../channel/session-channel.js';
import { sessionLeaseName } from './session-lease.js';

/** A /stop for a session, with who asked. */
export interface StopRequest {
  by: Identity | undefined;
  callerIsOwner: boolean;
  reason: string;
}

export type StopAnswer = 'stopped' | 'noTurn' | 'refused';

/** What travels in a session's signals: a plain abort, or a /stop that wants its answer back. */
type SignalText =
  | { kind: 'abort'; options: AbortOptions }
  | { kind: 'stop'; reply: string; request: StopRequest }
  | { kind: 'answer'; answer: StopAnswer };

/** How long a /stop waits for the owner's answer before saying no turn runs. */
const ANSWER_WAIT_MS = 2000;

/** What the signals need from the session owners. */
interface SignalHost {
  owns(sessionId: string): boolean;
  /** Takes the session if no live process holds it; whether it was free. */
  takeIfFree(sessionId: string): Promise<boolean>;
  peek(sessionId: string): SessionChannel | undefined;
  stopAsked(sessionId: string, request: StopRequest): Promise<StopAnswer>;
}

const PREFIX = sessionLeaseName('');

export class SessionSignals {
  private readonly dispose: () => void;

  constructor(
    private readonly deps: AgentDeps,
    private readonly queue: HandOverService,
    private readonly owners: SignalHost,
  ) {
    this.dispose = queue.onSignal((name, text) => this.onSignal(name, text));
  }

  close(): void {
    this.dispose();
  }

  /** A stop for a session this process does not run: sent to its owner. */
  forwardAbort(sessionId: string, options: AbortOptions): void {
    this.send(sessionLeaseName(sessionId), { kind: 'abort', options });
  }

  /**
   * A /stop for a session this process does not run: asked of its owner, which answers by the same rules. No
   * owner (the session's lease is free) or no answer in time: no turn runs.
   */
  async askStop(sessionId: string, request: StopRequest): Promise<StopAnswer> {
    const name = sessionLeaseName(sessionId);
    if (await this.owners.takeIfFree(sessionId)) return 'noTurn';
    const reply = `agent-answer:${randomUUID()}`;
    return new Promise<StopAnswer>((resolve) => {
      const done = (answer: StopAnswer) => {
        clearTimeout(timer);
        stop();
        resolve(answer);
      };
      const stop = this.queue.onSignal((signalName, text) => {
        if (signalName !== reply) return;
        const parsed = readSignal(text);
        if (parsed?.kind === 'answer') done(parsed.answer);
      });
      const timer = setTimeout(() => done('noTurn'), ANSWER_WAIT_MS);
      this.send(name, { kind: 'stop', reply, request });
    });
  }

  private send(name: string, signal: SignalText): void {
    this.queue
      .signal(name, JSON.stringify(signal))
      .catch((error: unknown) =>
        this.deps.log.warn('sending a stop to the session owner failed', { error: String(error) }),
      );
  }

  private onSignal(name: string, text: string): void {
    if (!name.startsWith(PREFIX)) return;
    const sessionId = name.slice(PREFIX.length);
    if (!this.owners.owns(sessionId)) return;
    const signal = readSignal(text);
    if (signal?.kind === 'abort') {
      const { options } = signal;
      this.owners.peek(sessionId)?.stop({
        turnId: options.turnId,
        by: options.by,
        reason: options.reason ?? 'abort',
        release: options.queued ? 'archive' : undefined,
      });
    } else if (signal?.kind === 'stop') {
      void this.owners
        .stopAsked(sessionId, signal.request)
        .then((answer) => this.send(signal.reply, { kind: 'answer', answer }));
    }
  }
}

function readSignal(text: string): SignalText | undefined {
  try {
    const signal = JSON.parse(text) as SignalText;
    return typeof signal === 'object' && signal !== null ? signal : undefined;
  } catch {
    return undefined;
  }
}
