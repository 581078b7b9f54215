// `aalis start`: the interactive terminal. readline reads lines (messages and slash commands alike, typed at any
// time); the TurnView keeps the screen model; a TerminalScreen draws it above the prompt. Ctrl-C once stops the
// running turn (it sends /stop, the same command), twice within two seconds leaves; Ctrl-D on an empty line leaves.
// Piped input (not a terminal) leaves when it ends and everything it sent was answered.
import { createInterface, type Interface } from 'node:readline';
import type { TokenUsageEvent, TurnAfterContext, TurnBeforeContext } from '@aalis/api-agent';
import type { OutboundStreamFragment } from '@aalis/api-gateway';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { excerpt, formatUsageLine, type Translate } from './format.js';
import type { CliExit, Frontend } from './frontend.js';
import { type InputNotice, InputTracker } from './input-tracker.js';
import { LineJoiner } from './line-joiner.js';
import { cliMessage, type LocalUser, type Send } from './send-input.js';
import type { Style } from './style.js';
import { PlainScreen, type Screen, TerminalScreen } from './terminal-screen.js';
import { isBlankInput, neutraliseControls } from './terminal-text.js';
import { type ReasoningDisplay, TurnView } from './turn-view.js';

/** The prompt of the continuation lines of a multi-line message (a line ended in a backslash). */
export const CONTINUATION_PROMPT = '… ';

/** Two Ctrl-C presses within this window leave the chat. */
export const DOUBLE_CTRL_C_MS = 2_000;

export interface InteractiveChatOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  sessionId: string;
  user: LocalUser;
  send: Send;
  style: Style;
  t: Translate;
  reasoning: ReasoningDisplay;
  prompt: string;
  usageAfterTurn: boolean;
  latestUsage(): TokenUsageEvent | undefined;
  now?: () => number;
}

export class InteractiveChat implements Frontend {
  private readonly view: TurnView;
  private readonly tracker = new InputTracker();
  private readonly joiner = new LineJoiner();
  /** Turns seen streaming (a fallback for "is a turn running" when no hooks service is present). */
  private readonly streaming = new Set<string>();
  private readline: Interface | undefined;
  private screen: Screen;
  private terminal = false;
  private lastCtrlC: number | undefined;
  private renderQueued = false;
  /** Messages sent whose `send` has not settled yet (it settles when their turn ends). */
  private readonly sending = new Set<Promise<void>>();
  private finished = false;
  private resolveExit!: (reason: CliExit) => void;
  private readonly exited = new Promise<CliExit>((resolve) => {
    this.resolveExit = resolve;
  });

  constructor(private readonly options: InteractiveChatOptions) {
    this.view = new TurnView({ reasoning: options.reasoning, style: options.style, t: options.t });
    this.screen = new PlainScreen(options.output);
  }

  run(): Promise<CliExit> {
    const { input, output, prompt } = this.options;
    this.terminal = input.isTTY === true && output.isTTY === true;
    const readline = createInterface({ input, output, terminal: this.terminal, prompt, historySize: 500 });
    this.readline = readline;
    if (this.terminal) this.screen = new TerminalScreen(output, readline);
    readline.on('line', (line) => this.onLine(line));
    readline.on('SIGINT', () => this.onCtrlC());
    readline.on('close', () => {
      // A message still continued (its last line ended in a backslash) when the input ended is sent, not dropped.
      const rest = this.joiner.flush();
      if (!this.finished && rest !== undefined) this.submit(rest);
      // At a terminal, Ctrl-D leaves at once (a running turn is stopped by the drain). Piped input
      // (`echo hi | aalis`) is answered first, as `aalis chat` answers it: leaving would stop its turns unanswered.
      if (this.terminal) this.finish('end-of-input');
      else void this.sentSettled().then(() => this.finish('end-of-input'));
    });
    // The terminal or pipe went away (EPIPE, EIO): leave as when the input ends; nothing more can be shown.
    output.on('error', () => this.finish('closed'));
    // A closed terminal also fails its input: leaving raw mode on a hung-up tty reports EIO through readline, which
    // would otherwise throw it as an unhandled 'error' before the SIGHUP drain could run.
    readline.on('error', () => this.finish('closed'));
    this.render();
    return this.exited;
  }

  close(): void {
    this.finish('closed');
  }

  get turnRunning(): boolean {
    return this.tracker.turnRunning || this.streaming.size > 0;
  }

  fragment(fragment: OutboundStreamFragment): void {
    this.view.fragment(fragment);
    if (fragment.done) {
      this.streaming.delete(fragment.turnId);
      const usage = this.options.latestUsage();
      if (this.options.usageAfterTurn && usage?.turnId === fragment.turnId) {
        this.view.note(this.options.style.dim(formatUsageLine(usage, this.options.t)));
      }
    } else if (fragment.turnId !== '') {
      this.streaming.add(fragment.turnId);
    }
    this.schedule();
  }

  toolExecute(event: ToolExecuteEvent): void {
    this.view.toolExecute(event);
    this.schedule();
  }

  message(message: OutgoingMessage): void {
    this.view.message(message);
    this.schedule();
  }

  turnStarted(context: TurnBeforeContext): void {
    const inputs = context.inputs;
    this.show(this.tracker.turnStarted(context.turnId, () => inputs.map((input) => input.message.messageId)));
  }

  turnEnded(context: TurnAfterContext): void {
    this.view.turnOutcome(context.turnId, context.outcome);
    this.show(this.tracker.turnEnded(context.turnId));
  }

  stoppedElsewhere(line: string): void {
    this.view.note(this.options.style.yellow(line));
    this.schedule();
  }

  queueChanged(waiting: readonly IncomingMessage[]): void {
    this.show(this.tracker.queueChanged(waiting.map((message) => message.messageId)));
    // A join shows in the turn's input list right after it leaves the waiting list.
    setImmediate(() => this.show(this.tracker.confirmJoins()));
  }

  print(lines: readonly string[]): void {
    this.view.note(...lines);
    this.schedule();
  }

  private onLine(line: string): void {
    const readline = this.readline!;
    const echo = readline.getPrompt() + line;
    const content = this.joiner.push(line);
    if (content !== undefined) this.submit(content);
    readline.setPrompt(this.joiner.continuing ? CONTINUATION_PROMPT : this.options.prompt);
    this.screen.render(this.view.take(), this.terminal ? echo : undefined);
  }

  /** Sends a typed message unless it shows nothing (empty, or only white space and invisible characters). */
  private submit(content: string): void {
    if (isBlankInput(content)) return;
    const message = cliMessage({ sessionId: this.options.sessionId, user: this.options.user, content });
    this.tracker.submitted(message.messageId!, content);
    this.deliver(message);
  }

  private onCtrlC(): void {
    const now = (this.options.now ?? Date.now)();
    if (this.lastCtrlC !== undefined && now - this.lastCtrlC <= DOUBLE_CTRL_C_MS) {
      this.finish('ctrl-c');
      return;
    }
    this.lastCtrlC = now;
    if (this.joiner.reset()) this.readline?.setPrompt(this.options.prompt);
    const { style, t, sessionId, user } = this.options;
    if (this.turnRunning) {
      this.deliver(cliMessage({ sessionId, user, content: '/stop' }));
      this.view.note(style.yellow(t({ key: 'cli.ctrlc.stopping' })));
    } else {
      this.view.note(style.dim(t({ key: 'cli.ctrlc.hint' })));
    }
    this.render();
  }

  /** Settles once every message sent so far (and any sent meanwhile) has settled: its turn ended. */
  private async sentSettled(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
  }

  private deliver(message: IncomingMessage): void {
    const { style, t } = this.options;
    const sending = this.options
      .send(message)
      .then((report) => {
        this.tracker.settled(message.messageId!);
        if (!report) this.print([style.yellow(t({ key: 'cli.inbound.noGateway' }))]);
        else if (report.outcome === 'no-agent') this.print([style.yellow(t({ key: 'cli.inbound.noAgent' }))]);
        else if (report.outcome === 'failed') this.print([style.red(t({ key: 'cli.inbound.failed' }))]);
      })
      .catch((error: unknown) =>
        this.print([style.red(`${t({ key: 'cli.inbound.failed' })}: ${neutraliseControls(String(error))}`)]),
      )
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  private show(notices: readonly InputNotice[]): void {
    const { style, t } = this.options;
    for (const notice of notices) {
      const text = excerpt(neutraliseControls(notice.text), 40);
      this.view.note(style.dim(t({ key: `cli.queue.${notice.fate}`, params: { excerpt: text } })));
    }
    this.view.waiting = this.tracker.waitingCount;
    this.schedule();
  }

  private finish(reason: CliExit): void {
    if (this.finished) return;
    this.finished = true;
    this.view.note(this.options.style.dim(this.options.t({ key: 'cli.exiting' })));
    this.screen.closePrompt();
    this.render();
    this.readline?.close();
    this.resolveExit(reason);
  }

  private schedule(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    setImmediate(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  private render(): void {
    this.screen.render(this.view.take());
  }
}
