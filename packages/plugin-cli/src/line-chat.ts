// `aalis chat`: one message per input line (a line ending in a backslash continues on the next), sent one after
// another — each waits until its turn settled — with every reply and notice printed on its own lines. Ends when
// the input ends and the last turn has finished.
import { createInterface, type Interface } from 'node:readline';
import type { OutgoingMessage } from '@aalis/schema-message';
import type { CliExit, Frontend } from './frontend.js';
import { LineJoiner } from './line-joiner.js';
import { cliMessage, type LocalUser, type Send } from './send-input.js';

export interface LineChatOptions {
  input: NodeJS.ReadableStream;
  output: { write(text: string): unknown };
  sessionId: string;
  user: LocalUser;
  send: Send;
  /** Called when a line could not be delivered (no gateway, a failing phase). */
  onUndelivered(text: string, outcome: string): void;
}

export class LineChat implements Frontend {
  private readline: Interface | undefined;
  private closed = false;

  constructor(private readonly options: LineChatOptions) {}

  async run(): Promise<CliExit> {
    const { input, sessionId, user, send, onUndelivered } = this.options;
    const readline = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    this.readline = readline;
    const joiner = new LineJoiner();
    for await (const line of readline) {
      if (this.closed) break;
      const content = joiner.push(line);
      if (content === undefined || content.trim() === '') continue;
      const report = await send(cliMessage({ sessionId, user, content }));
      if (!report) onUndelivered(content, 'no-gateway');
      else if (report.outcome === 'failed' || report.outcome === 'no-agent') onUndelivered(content, report.outcome);
    }
    return this.closed ? 'closed' : 'end-of-input';
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.readline?.close();
  }

  message(message: OutgoingMessage): void {
    this.options.output.write(`${message.content}\n`);
  }

  fragment(): void {}
  toolExecute(): void {}
  turnStarted(): void {}
  turnEnded(): void {}
  queueChanged(): void {}
  print(): void {}
}
