// Terminal replies across processes (issue #16). On a shared database a line typed into this terminal may be run by
// the process that owns its session. Every terminal takes the hand-over queue `platform:cli:<holder>` (it holds the
// lease of that name while it runs); the process running a turn hands the turn's messages and tool lines to the
// terminals whose lines the turn answers, and each prints them as its own. A message waits until its terminal took
// it, so it is printed before that terminal's line settles; one no terminal takes becomes `outbound:failed`.
import type { TurnInput } from '@aalis/api-agent';
import type { DeliveryFailure } from '@aalis/api-gateway';
import type { HandOverItem, HandOverService, Lease, LeasesService } from '@aalis/api-storage';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { AalisError, Logger } from '@aalis/core';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { cliErrors } from './cli-errors.js';

/** The metadata key of an input typed into a terminal: that terminal's id (its process's lease holder id). */
export const CLI_TERMINAL_KEY = 'aalisTerminal';

export const terminalQueueName = (terminal: string): string => `platform:cli:${terminal}`;

/** What one terminal hands another: a message of a turn, or one of its tool lines. */
export type Relayed = { type: 'message'; message: OutgoingMessage } | { type: 'tool'; event: ToolExecuteEvent };

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
export async function stayWhileAnswering(busy: () => boolean, closed: () => boolean): Promise<void> {
  const until = Date.now() + MAX_STAY_MS;
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
  /** Reports a message no terminal took (the message archive records it in the history). */
  failed(failure: DeliveryFailure): Promise<void>;
  /** How long a message waits for its terminal; default twice the lease time, at least 5 s. */
  timeoutMs?: number;
}

export class TerminalRelay {
  /** This terminal's id: the process's lease holder id. */
  readonly terminal: string;
  private readonly name: string;

  private readonly timeoutMs: number;
  private lease: Lease | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  private pumping = false;
  private again = false;
  /** Terminals that did not take a message in time (their process ended): not waited for again. */
  private readonly gone = new Set<string>();
  /** The last put per terminal: puts to one terminal are made one after another, so its items keep their order. */
  private readonly puts = new Map<string, Promise<unknown>>();

  constructor(private readonly options: TerminalRelayOptions) {
    this.terminal = options.leases.holder;
    this.name = terminalQueueName(this.terminal);
    this.timeoutMs = options.timeoutMs ?? Math.max(5000, 2 * options.leases.ttlMs);
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
    this.unsubscribe = this.options.queue.onPut((name) => {
      if (name === this.name) this.pump();
    });
    this.pump();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const lease = this.lease;
    this.lease = undefined;
    await lease?.release().catch(() => {});
  }

  /** Hands a turn's message to each terminal and waits until each took it (or reports it as failed). */
  async sendMessage(message: OutgoingMessage, terminals: readonly string[]): Promise<void> {
    await Promise.all(terminals.map((terminal) => this.deliverMessage(message, terminal)));
  }

  /** Hands a tool line to each terminal without waiting (the turn's next message waits behind it in order). */
  sendTool(event: ToolExecuteEvent, terminals: readonly string[]): void {
    for (const terminal of terminals) {
      if (this.gone.has(terminal)) continue;
      this.put(terminal, { type: 'tool', event }).catch((error: unknown) =>
        this.options.logger.warn('terminal: handing a tool line to another terminal failed', {
          turnId: event.turnId,
          error: String(error),
        }),
      );
    }
  }

  private put(terminal: string, item: Relayed): Promise<{ id: number }> {
    const before = this.puts.get(terminal) ?? Promise.resolve();
    const put = before
      .catch(() => {})
      .then(() => this.options.queue.put(terminalQueueName(terminal), JSON.stringify(item)));
    this.puts.set(terminal, put);
    void put.finally(() => {
      if (this.puts.get(terminal) === put) this.puts.delete(terminal);
    });
    return put;
  }

  private async deliverMessage(message: OutgoingMessage, terminal: string): Promise<void> {
    const turnId = message.turnId ?? '-';
    const timeoutMs = this.timeoutMs;
    if (this.gone.has(terminal))
      return this.fail(message, cliErrors.AALIS_CLI_RELAY_TIMEOUT({ terminal, turnId, timeoutMs }));
    let id: number;
    try {
      ({ id } = await this.put(terminal, { type: 'message', message }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return this.fail(message, cliErrors.AALIS_CLI_RELAY_FAILED({ terminal, turnId, reason }));
    }
    const outcome = await this.options.queue
      .settled(id, { signal: AbortSignal.timeout(timeoutMs) })
      .catch(() => undefined);
    if (outcome !== undefined) return;
    this.gone.add(terminal);
    // Finished here so it does not wait for a terminal that is not coming back.
    await this.options.queue.finish(id, 'timeout').catch(() => {});
    return this.fail(message, cliErrors.AALIS_CLI_RELAY_TIMEOUT({ terminal, turnId, timeoutMs }));
  }

  private async fail(message: OutgoingMessage, error: AalisError): Promise<void> {
    this.options.logger.warn(`terminal: a message was not shown on another terminal (${error.code})`, {
      sessionId: message.sessionId,
      turnId: message.turnId,
    });
    await this.options.failed({ message, platform: 'cli', code: error.code, reason: error.message });
  }

  private pump(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.drain()
      .catch((error: unknown) =>
        this.options.logger.warn('terminal: taking messages handed over by other processes failed', {
          error: String(error),
        }),
      )
      .finally(() => {
        this.pumping = false;
        if (this.again && !this.closed) {
          this.again = false;
          this.pump();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.lease) {
      this.again = false;
      const items = await this.options.queue.take(this.name, { limit: 50 });
      if (items.length === 0) return;
      for (const item of items) {
        this.show(item);
        await this.options.queue.finish(item.id, 'shown');
      }
    }
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
