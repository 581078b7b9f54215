// The last N real model requests (messages and tools), for debugging. Off unless enabled with a bound: it may
// hold page text and prompts, so it is diagnostic data, not an audit log.
import type { Message } from '@aalis/schema-message';
import type { ModelToolDefinition } from './llm-client.js';
import { Observable } from './observable.js';

export interface TraceEntry {
  /** Milliseconds since the epoch, when the request was sent. */
  at: number;
  sessionId: string;
  model: string;
  messages: readonly Message[];
  tools: readonly ModelToolDefinition[];
}

export class Trace extends Observable<readonly TraceEntry[]> {
  private entries: TraceEntry[] = [];
  private bound: number | undefined;

  constructor(options?: { maxCalls: number }) {
    super();
    this.bound = options?.maxCalls;
  }

  /** Undefined: tracing is off and record() keeps nothing. */
  get maxCalls(): number | undefined {
    return this.bound;
  }

  get enabled(): boolean {
    return this.maxCalls !== undefined;
  }

  record(entry: TraceEntry): void {
    if (this.maxCalls === undefined) return;
    this.entries.push(Object.freeze({ ...entry, messages: [...entry.messages], tools: [...entry.tools] }));
    if (this.entries.length > this.maxCalls) this.entries.splice(0, this.entries.length - this.maxCalls);
    this.changed();
  }

  /**
   * Turns tracing on (or keeps at least `maxCalls` entries) on a running runtime: a debug view mounted after the
   * runtime started still gets its trace. The bound only grows, so two views never shorten each other's.
   */
  enable({ maxCalls }: { maxCalls: number }): void {
    if (!Number.isInteger(maxCalls) || maxCalls < 1) return;
    if (this.bound !== undefined && this.bound >= maxCalls) return;
    this.bound = maxCalls;
    this.changed();
  }

  /** Oldest first. */
  calls(): readonly TraceEntry[] {
    return this.getSnapshot();
  }

  clear(): void {
    this.entries = [];
    this.changed();
  }

  protected buildSnapshot(): readonly TraceEntry[] {
    return Object.freeze([...this.entries]);
  }
}
