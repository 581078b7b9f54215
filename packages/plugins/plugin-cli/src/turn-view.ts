// The screen model of one session, without I/O: streamed fragments, tool executions, notices and turn ends go in;
// lines to print for good (`commit`) and the live region at the bottom (`live`, redrawn in place) come out.
// Reasoning streams as one live "thinking" line and collapses to a summary (or is shown dimmed, or hidden); tool
// calls get one line each that follows their progress; reply text is committed line by line as it streams.
import type { TurnOutcome } from '@aalis/api-agent';
import type { OutboundStreamFragment } from '@aalis/api-gateway';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { OutgoingMessage } from '@aalis/schema-message';
import { formatNotice, formatToolLine, type ToolCallView, type Translate } from './format.js';
import type { Style } from './style.js';
import { neutraliseControls as safe } from './terminal-text.js';

export type ReasoningDisplay = 'collapsed' | 'expanded' | 'hidden';

type Block =
  | { kind: 'reasoning'; chars: number; pending: string }
  | { kind: 'tools'; calls: ToolCallView[] }
  | { kind: 'text'; partial: string };

export interface ScreenUpdate {
  /** Lines printed for good, above the live region. */
  commit: string[];
  /** The live region, redrawn in place. */
  live: string[];
}

export interface TurnViewOptions {
  reasoning: ReasoningDisplay;
  style: Style;
  t: Translate;
}

export class TurnView {
  private blocks: Block[] = [];
  private committed: string[] = [];
  private readonly streamedText = new Set<string>();
  private readonly outcomes = new Map<string, TurnOutcome>();
  private reasoningTurn: string | undefined;
  private reasoningText = '';
  /** How many of the user's inputs wait; shown at the bottom of the live region. */
  waiting = 0;

  constructor(private readonly options: TurnViewOptions) {}

  /** The full reasoning of the latest turn that had any. */
  get lastReasoning(): string {
    return this.reasoningText;
  }

  // Everything that came from outside (the model, tools, servers) is neutralised on the way in (terminal-text.ts).
  fragment(fragment: OutboundStreamFragment): void {
    if (fragment.reasoningDelta) this.reasoningDelta(fragment.turnId, safe(fragment.reasoningDelta));
    if (fragment.delta) this.textDelta(fragment.turnId, safe(fragment.delta));
    if (fragment.toolCallProgress) this.toolProgress(fragment.toolCallProgress);
    if (fragment.done) this.turnDone(fragment.turnId);
  }

  toolExecute(event: ToolExecuteEvent): void {
    let call = this.currentTools()?.calls.find((candidate) => candidate.callId === event.callId);
    if (!call) {
      call = { callId: event.callId, name: safe(event.name), args: '', state: 'running' };
      this.tools().calls.push(call);
    }
    if (event.phase === 'start') {
      call.state = 'running';
      if (call.args.trim() === '') call.args = safe(argumentsText(event.arguments));
    } else {
      call.state = event.result.isError ? 'failed' : 'done';
      call.result = safe(event.result.content);
      call.durationMs = Math.round(event.durationMs);
    }
  }

  /** agent:turn:after: remembered until the turn's stream ends. */
  turnOutcome(turnId: string, outcome: TurnOutcome): void {
    this.outcomes.set(turnId, outcome);
  }

  /** An outbound message for this session: notices and command replies; replies that were not streamed. */
  message(message: OutgoingMessage): void {
    const { style } = this.options;
    if (message.kind === 'reply') {
      if (message.turnId !== undefined && this.streamedText.has(message.turnId)) return;
      this.commitAll();
    } else if (message.turnId !== undefined) {
      this.commitAll(); // a notice of the running turn comes after what it streamed
    }
    this.committed.push(...formatNotice(message.kind, safe(message.content), style));
  }

  /** Lines printed for good right away (input fates, hints). */
  note(...lines: string[]): void {
    this.committed.push(...lines);
  }

  take(): ScreenUpdate {
    return { commit: this.committed.splice(0), live: this.live() };
  }

  private live(): string[] {
    const { style, t, reasoning } = this.options;
    const lines: string[] = [];
    for (const block of this.blocks) {
      if (block.kind === 'reasoning') {
        if (reasoning === 'collapsed')
          lines.push(style.dim(t({ key: 'cli.reasoning.live', params: { chars: block.chars } })));
        else if (block.pending !== '') lines.push(style.dim(block.pending));
      } else if (block.kind === 'tools') {
        for (const call of block.calls) lines.push(formatToolLine(call, style));
      } else if (block.partial !== '') {
        lines.push(block.partial);
      }
    }
    if (this.waiting > 0) lines.push(style.dim(t({ key: 'cli.queue.waiting', params: { count: this.waiting } })));
    return lines;
  }

  private reasoningDelta(turnId: string, text: string): void {
    if (this.reasoningTurn !== turnId) {
      this.reasoningTurn = turnId;
      this.reasoningText = '';
    }
    this.reasoningText += text;
    if (this.options.reasoning === 'hidden') return;
    let block = this.blocks.at(-1);
    if (block?.kind !== 'reasoning') {
      this.commitAll();
      block = { kind: 'reasoning', chars: 0, pending: '' };
      this.blocks.push(block);
    }
    block.chars += Array.from(text).length;
    if (this.options.reasoning === 'expanded') {
      const lines = (block.pending + text).split('\n');
      block.pending = lines.pop()!;
      this.committed.push(...lines.map((line) => this.options.style.dim(line)));
    }
  }

  private textDelta(turnId: string, text: string): void {
    this.streamedText.add(turnId);
    let block = this.blocks.at(-1);
    if (block?.kind !== 'text') {
      this.commitAll();
      block = { kind: 'text', partial: '' };
      this.blocks.push(block);
    }
    const lines = (block.partial + text).split('\n');
    block.partial = lines.pop()!;
    this.committed.push(...lines);
  }

  private toolProgress(progress: NonNullable<OutboundStreamFragment['toolCallProgress']>): void {
    const block = this.tools();
    let call = block.calls.find((candidate) => candidate.callId === progress.callId);
    if (!call) {
      call = { callId: progress.callId, name: '', args: '', state: 'streaming' };
      block.calls.push(call);
    }
    if (progress.name) call.name = safe(progress.name);
    if (progress.argumentsDelta) call.args += safe(progress.argumentsDelta);
  }

  private turnDone(turnId: string): void {
    this.commitAll();
    this.streamedText.delete(turnId);
    const outcome = this.outcomes.get(turnId);
    this.outcomes.delete(turnId);
    if (outcome === 'aborted')
      this.committed.push(this.options.style.yellow(this.options.t({ key: 'cli.turn.stopped' })));
  }

  /** The tools block at the end of the live region, started when the last block is something else. */
  private tools(): Extract<Block, { kind: 'tools' }> {
    const current = this.currentTools();
    if (current) return current;
    this.commitAll();
    const block: Extract<Block, { kind: 'tools' }> = { kind: 'tools', calls: [] };
    this.blocks.push(block);
    return block;
  }

  private currentTools(): Extract<Block, { kind: 'tools' }> | undefined {
    const last = this.blocks.at(-1);
    return last?.kind === 'tools' ? last : undefined;
  }

  private commitAll(): void {
    const { style, t, reasoning } = this.options;
    for (const block of this.blocks) {
      if (block.kind === 'reasoning') {
        if (reasoning === 'collapsed')
          this.committed.push(style.dim(t({ key: 'cli.reasoning.collapsed', params: { chars: block.chars } })));
        else if (block.pending !== '') this.committed.push(style.dim(block.pending));
      } else if (block.kind === 'tools') {
        for (const call of block.calls) this.committed.push(formatToolLine(call, style));
      } else if (block.partial !== '') {
        this.committed.push(block.partial);
      }
    }
    this.blocks = [];
  }
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
