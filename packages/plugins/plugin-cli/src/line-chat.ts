// `aalis chat`: one message per input line (a line ending in a backslash continues on the next), sent one after
// another — each waits until its turn settled — with every reply and notice printed on its own lines. Ends when
// the input ends and the last turn has finished.
import { createInterface, type Interface } from 'node:readline';
import type { OutgoingMessage } from '@aalis/schema-message';
import type { CliExit, Frontend } from './frontend.js';
import { LineJoiner } from './line-joiner.js';
import { cliMessage, type LocalUser, type Send } from './send-input.js';
import { isBlankInput, neutraliseControls } from './terminal-text.js';

export interface LineChatOptions {
  input: NodeJS.ReadableStream;
  /**
   * Replies go here. A write that fails (a closed pipe, `aalis chat | head -1`: EPIPE) ends the chat: the running
   * turn settles, no further line is sent.
   */
  output: {
    write(text: string, callback?: (error?: Error | null) => void): unknown;
    on?(event: 'error', listener: (error: Error) => void): unknown;
  };
  sessionId: string;
  user: LocalUser;
  send: Send;
  /** Called when a line could not be delivered (no gateway, a failing phase). */
  onUndelivered(text: string, outcome: string): void;
}

export class LineChat implements Frontend {
  private readline: Interface | undefined;
  private closed = false;
  /** The output failed (EPIPE): nothing more is written, no further line is sent. */
  private outputClosed = false;
  /** Settles when what was written so far has left (or failed): the next line waits for it. */
  private written: Promise<void> = Promise.resolve();

  constructor(private readonly options: LineChatOptions) {}

  async run(): Promise<CliExit> {
    const { input, sessionId, user, send, onUndelivered } = this.options;
    const readline = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    this.readline = readline;
    this.options.output.on?.('error', () => this.outputFailed());
    const joiner = new LineJoiner();
    const deliver = async (content: string | undefined) => {
      if (content === undefined || isBlankInput(content)) return;
      const report = await send(cliMessage({ sessionId, user, content }));
      await this.written;
      if (!report) onUndelivered(content, 'no-gateway');
      else if (report.outcome === 'failed' || report.outcome === 'no-agent') onUndelivered(content, report.outcome);
    };
    for await (const line of readline) {
      if (this.closed) break;
      await deliver(joiner.push(line));
    }
    // A message still continued (its last line ended in a backslash) when the input ended is sent, not dropped.
    if (!this.closed) await deliver(joiner.flush());
    return this.closed ? 'closed' : 'end-of-input';
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.readline?.close();
  }

  message(message: OutgoingMessage): void {
    this.writeLine(neutraliseControls(message.content));
  }

  stoppedElsewhere(line: string): void {
    this.writeLine(line);
  }

  private writeLine(line: string): void {
    if (this.outputClosed) return;
    const text = `${line}\n`;
    const before = this.written;
    this.written = new Promise((resolve) => {
      this.options.output.write(text, (error) => {
        if (error) this.outputFailed();
        void before.then(resolve);
      });
    });
  }

  private outputFailed(): void {
    this.outputClosed = true;
    this.close();
  }

  fragment(): void {}
  toolExecute(): void {}
  turnStarted(): void {}
  turnEnded(): void {}
  queueChanged(): void {}
  print(): void {}
}
