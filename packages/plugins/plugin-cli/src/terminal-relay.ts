// Terminal replies across processes. On a shared database a line typed into this terminal may be run by the process
// that owns its session. Every terminal takes the hand-over queue `platform:cli:<holder>` (it holds the lease of that
// name while it runs) and prints what it finds there as its own: the process running a turn — with a terminal or
// without (`aalis serve`) — hands the turn's messages and tool lines to the terminals whose lines the turn answers
// (plugin-agent's terminal-forwarding.ts), and waits until each was shown.
import { type TerminalItem, type TurnInput, terminalQueueName } from '@aalis/api-agent';
import {
  type HandOverItem,
  type HandOverService,
  HandOverTaker,
  type Lease,
  type LeasesService,
} from '@aalis/api-storage';
import type { Logger } from '@aalis/core';
import { type IncomingMessage, WellKnownMetadataKeys } from '@aalis/schema-message';

/** The metadata key of an input typed into a terminal: that terminal's id (its process's lease holder id). */
export const CLI_TERMINAL_KEY = WellKnownMetadataKeys.Terminal;

/** What a terminal is handed: a message of a turn, or one of its tool lines. */
export type Relayed = TerminalItem;

/** The input as typed into `terminal`: its metadata names the terminal, wherever its turn runs. */
export function markTerminal(message: IncomingMessage, terminal: string): IncomingMessage {
  return { ...message, metadata: { ...message.metadata, [CLI_TERMINAL_KEY]: terminal } };
}

/** Whether the input was typed into a terminal other than `self` (of another process). */
export function fromOtherTerminal(message: IncomingMessage, self: string | undefined): boolean {
  const terminal = message.metadata?.[CLI_TERMINAL_KEY];
  return typeof terminal === 'string' && terminal !== self;
}

/**
 * Whether an input whose turn was recorded as stopped on another process (agent:stopped-elsewhere) is this
 * terminal's: a line typed here (or, unmarked, an input of this terminal's session), so it prints the stopped line.
 */
export function stoppedHere(message: IncomingMessage, self: string | undefined, sessionId: string): boolean {
  return message.sessionId === sessionId && !fromOtherTerminal(message, self);
}

/**
 * Who a turn answers: this terminal (a line typed here; in this terminal's own session also an input typed into no
 * terminal, as before) and the other terminals whose lines are among the turn's inputs.
 */
export function audienceOf(
  inputs: readonly TurnInput[],
  self: string | undefined,
  ownSession: boolean,
): { here: boolean; elsewhere: string[] } {
  let here = false;
  const elsewhere = new Set<string>();
  for (const { message } of inputs) {
    const terminal = message.metadata?.[CLI_TERMINAL_KEY];
    if (terminal === self && self !== undefined) here = true;
    else if (typeof terminal === 'string') elsewhere.add(terminal);
    else if (ownSession) here = true;
  }
  return { here, elsewhere: [...elsewhere] };
}

/**
 * Resolves once `busy` has been false for QUIET_MS on end, or after MAX_STAY_MS at most: other terminals that keep
 * typing could keep this process owning their session for ever (what it runs then is stopped as at any shutdown).
 */
export async function stayWhileAnswering(
  busy: () => boolean,
  closed: () => boolean,
  maxStayMs = MAX_STAY_MS,
): Promise<void> {
  const until = Date.now() + maxStayMs;
  let quietSince = Date.now();
  while (Date.now() - quietSince < QUIET_MS && Date.now() < until && !closed()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (busy()) quietSince = Date.now();
  }
}

const QUIET_MS = 300;
const MAX_STAY_MS = 60_000;

export interface TerminalRelayOptions {
  queue: HandOverService;
  leases: LeasesService;
  logger: Logger;
  /** Shows what another process handed to this terminal. */
  showHere(item: Relayed): void;
}

export class TerminalRelay {
  /** This terminal's id: the process's lease holder id. */
  readonly terminal: string;
  private readonly name: string;
  private lease: Lease | undefined;
  private closed = false;
  private readonly taker: HandOverTaker;

  constructor(private readonly options: TerminalRelayOptions) {
    this.terminal = options.leases.holder;
    this.name = terminalQueueName(this.terminal);
    this.taker = new HandOverTaker({
      queue: options.queue,
      name: this.name,
      limit: 50,
      run: async (item) => {
        this.show(item);
        return 'shown';
      },
      failed: (error) =>
        options.logger.warn('terminal: taking messages handed over by other processes failed', {
          error: String(error),
        }),
    });
  }

  /** Holds this terminal's queue and takes what others hand it from now on. */
  async start(): Promise<void> {
    const lease = await this.options.leases.tryAcquire(this.name);
    if (this.closed) {
      await lease?.release();
      return;
    }
    // The name carries this process's unique holder id, so nobody else holds it.
    if (!lease) this.options.logger.warn(`terminal: could not hold ${this.name}; replies run elsewhere are not shown`);
    this.lease = lease;
    if (lease) this.taker.start();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.taker.stop();
    const lease = this.lease;
    this.lease = undefined;
    await lease?.release().catch(() => {});
  }

  private show(item: HandOverItem): void {
    let relayed: Relayed | undefined;
    try {
      relayed = JSON.parse(item.payload) as Relayed;
    } catch {
      relayed = undefined;
    }
    if (relayed?.type === 'message' || relayed?.type === 'tool') {
      this.options.showHere(relayed);
      return;
    }
    this.options.logger.warn('terminal: a handed-over item could not be read; skipped', { id: item.id });
  }
}
