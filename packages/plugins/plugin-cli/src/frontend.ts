// What the platform plugin feeds a terminal front end (interactive or line by line), already filtered to its session.
import type { TurnAfterContext, TurnBeforeContext } from '@aalis/api-agent';
import type { OutboundStreamFragment } from '@aalis/api-gateway';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';

/** Why a front end finished: Ctrl-C twice, end of input (Ctrl-D, or the piped input ended), or closed from outside. */
export type CliExit = 'ctrl-c' | 'end-of-input' | 'closed';

export interface Frontend {
  run(): Promise<CliExit>;
  close(): void;
  fragment(fragment: OutboundStreamFragment): void;
  toolExecute(event: ToolExecuteEvent): void;
  message(message: OutgoingMessage): void;
  turnStarted(context: TurnBeforeContext): void;
  turnEnded(context: TurnAfterContext): void;
  queueChanged(waiting: readonly IncomingMessage[]): void;
  /**
   * A line typed here ran in a turn on another process that was recorded as stopped (no reply comes for it):
   * `line` is the terminal's stopped-turn text (cli.turn.stopped), as for a stopped turn of its own.
   */
  stoppedElsewhere(line: string): void;
  /** Lines printed above the prompt (log records, banners). */
  print(lines: readonly string[]): void;
}
