// Replies to terminals of other processes (docs/decisions/terminal-relay.md). A line typed into a terminal names it
// (WellKnownMetadataKeys.Terminal); whichever process runs the line's turn — one with a terminal of its own or an
// `aalis serve` that took the session over — hands the turn's messages and tool lines to that terminal's queue and
// waits until it was shown, so the reply is printed before the terminal's line settles. A terminal that does not take a
// message in time (its process ended) gets `outbound:failed`, and is not waited for again. This process's own terminal
// prints its lines' turns itself (plugin-cli).
import { type TerminalItem, terminalErrors, terminalQueueName } from '@aalis/api-agent';
import type { HandOverService } from '@aalis/api-storage';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { AalisError } from '@aalis/core';
import { type OutgoingMessage, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { RunningTurn } from '../channel/session-channel.js';

export interface TerminalForwardingOptions {
  queue: HandOverService;
  /** This process's lease holder id: the id of its own terminal, if it has one (not forwarded to). */
  holder: string;
  /** How long a message waits for its terminal; default twice the lease time, at least 5 s. */
  timeoutMs: number;
}

export class TerminalForwarding {
  /** The turns running here (their inputs are live: joins are appended). */
  private readonly turns = new Map<string, RunningTurn>();
  /** Terminals that did not take a message in time (their process ended): not waited for again. */
  private readonly gone = new Set<string>();
  /** The last put per terminal: puts to one terminal are made one after another, so its items keep their order. */
  private readonly puts = new Map<string, Promise<unknown>>();

  constructor(
    // Events to follow and a log to warn in: all it needs of the agent's dependencies.
    private readonly deps: { events: AgentDeps['events']; log: Pick<AgentDeps['log'], 'warn'> },
    private readonly options: TerminalForwardingOptions,
  ) {
    // Owned by the agent plugin: withdrawn with it, so replies of turns ending during the drain still go out.
    deps.events.on('outbound:message', async (message) => {
      if (message.platform !== undefined && message.platform !== 'cli') return;
      const terminals = this.terminalsOf(message.turnId);
      if (terminals.length > 0) await Promise.all(terminals.map((terminal) => this.deliver(message, terminal)));
    });
    deps.events.on('tool:execute', (event) => {
      for (const terminal of this.terminalsOf(event.turnId)) this.sendTool(event, terminal);
    });
  }

  /** A turn runs here: its messages go to the other terminals its inputs were typed into. */
  track(running: RunningTurn): void {
    this.turns.set(running.turnId, running);
    void running.settled.then(() => {
      if (this.turns.get(running.turnId) === running) this.turns.delete(running.turnId);
    });
  }

  /** The terminals of other processes that the turn's inputs name. */
  terminalsOf(turnId: string | undefined): string[] {
    const running = turnId === undefined ? undefined : this.turns.get(turnId);
    if (!running) return [];
    const terminals = new Set<string>();
    for (const { message } of running.inputs) {
      const terminal = message.metadata?.[WellKnownMetadataKeys.Terminal];
      if (typeof terminal === 'string' && terminal !== this.options.holder) terminals.add(terminal);
    }
    return [...terminals];
  }

  private sendTool(event: ToolExecuteEvent, terminal: string): void {
    if (this.gone.has(terminal)) return;
    this.put(terminal, { type: 'tool', event }).catch((error: unknown) =>
      this.deps.log.warn('terminal: handing a tool line to another terminal failed', {
        turnId: event.turnId,
        error: String(error),
      }),
    );
  }

  private put(terminal: string, item: TerminalItem): Promise<{ id: number }> {
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

  private async deliver(message: OutgoingMessage, terminal: string): Promise<void> {
    const turnId = message.turnId ?? '-';
    const timeoutMs = this.options.timeoutMs;
    if (this.gone.has(terminal))
      return this.fail(message, terminalErrors.AALIS_CLI_RELAY_TIMEOUT({ terminal, turnId, timeoutMs }));
    let id: number;
    try {
      ({ id } = await this.put(terminal, { type: 'message', message }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return this.fail(message, terminalErrors.AALIS_CLI_RELAY_FAILED({ terminal, turnId, reason }));
    }
    const outcome = await this.options.queue
      .settled(id, { signal: AbortSignal.timeout(timeoutMs) })
      .catch(() => undefined);
    if (outcome !== undefined) return;
    this.gone.add(terminal);
    // Finished here so it does not wait for a terminal that is not coming back.
    await this.options.queue.finish(id, 'timeout').catch(() => {});
    return this.fail(message, terminalErrors.AALIS_CLI_RELAY_TIMEOUT({ terminal, turnId, timeoutMs }));
  }

  private async fail(message: OutgoingMessage, error: AalisError): Promise<void> {
    this.deps.log.warn(`terminal: a message was not shown on another terminal (${error.code})`, {
      sessionId: message.sessionId,
      turnId: message.turnId,
    });
    await this.deps.events.emitAsync('outbound:failed', {
      message,
      platform: 'cli',
      code: error.code,
      reason: error.message,
    });
  }
}
