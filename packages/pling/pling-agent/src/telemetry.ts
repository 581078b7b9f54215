// Run-wide sums for cost and health: model calls (retries included), tool calls, tokens, estimated cost,
// durations, retries and error rate. Observable; reset() starts over.
import type { PricingConfig } from './config.js';
import { Observable } from './observable.js';

export interface TelemetrySnapshot {
  /** Requests actually sent to the model service, retries and summaries included. */
  modelCalls: number;
  failedModelCalls: number;
  retries: number;
  toolCalls: number;
  failedToolCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Model calls whose tokens came from the estimator because the server reported no usage. */
  estimatedTokenCalls: number;
  /** From the configured prices; undefined without prices. */
  estimatedCost: number | undefined;
  modelDurationMs: number;
  toolDurationMs: number;
  /** Failed model and tool calls over all model and tool calls (0 when none). */
  errorRate: number;
}

export interface ModelCallRecord {
  durationMs: number;
  ok: boolean;
  promptTokens?: number;
  completionTokens?: number;
  /** The token figures are estimates (no usage reported). */
  estimated?: boolean;
}

const EMPTY = {
  modelCalls: 0,
  failedModelCalls: 0,
  retries: 0,
  toolCalls: 0,
  failedToolCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  estimatedTokenCalls: 0,
  modelDurationMs: 0,
  toolDurationMs: 0,
};

export class Telemetry extends Observable<TelemetrySnapshot> {
  private counts = { ...EMPTY };

  constructor(private readonly pricing?: PricingConfig) {
    super();
  }

  recordModelCall({ durationMs, ok, promptTokens = 0, completionTokens = 0, estimated = false }: ModelCallRecord) {
    this.counts.modelCalls++;
    if (!ok) this.counts.failedModelCalls++;
    this.counts.promptTokens += promptTokens;
    this.counts.completionTokens += completionTokens;
    if (estimated) this.counts.estimatedTokenCalls++;
    this.counts.modelDurationMs += durationMs;
    this.changed();
  }

  recordRetry(): void {
    this.counts.retries++;
    this.changed();
  }

  recordToolCall({ durationMs, ok }: { durationMs: number; ok: boolean }): void {
    this.counts.toolCalls++;
    if (!ok) this.counts.failedToolCalls++;
    this.counts.toolDurationMs += durationMs;
    this.changed();
  }

  snapshot(): TelemetrySnapshot {
    return this.getSnapshot();
  }

  reset(): void {
    this.counts = { ...EMPTY };
    this.changed();
  }

  /**
   * Takes over the sums of an earlier snapshot (continuity: the previous document's telemetry of this tab). Fields
   * that are not counts (missing, negative, not numbers) stay as they are.
   */
  restore(snapshot: Partial<Record<keyof typeof EMPTY, unknown>>): void {
    const counts = { ...this.counts };
    for (const key of Object.keys(EMPTY) as Array<keyof typeof EMPTY>) {
      const value = snapshot[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) counts[key] = value;
    }
    this.counts = counts;
    this.changed();
  }

  protected buildSnapshot(): TelemetrySnapshot {
    const counts = this.counts;
    const calls = counts.modelCalls + counts.toolCalls;
    const failures = counts.failedModelCalls + counts.failedToolCalls;
    return Object.freeze({
      ...counts,
      totalTokens: counts.promptTokens + counts.completionTokens,
      estimatedCost: this.pricing ? estimateCost(this.pricing, counts) : undefined,
      errorRate: calls === 0 ? 0 : failures / calls,
    });
  }
}

/** The cost of these tokens at these prices (per million tokens). */
export function estimateCost(
  pricing: PricingConfig,
  { promptTokens, completionTokens }: { promptTokens: number; completionTokens: number },
): number {
  return (promptTokens * pricing.inputPerMillionTokens + completionTokens * pricing.outputPerMillionTokens) / 1_000_000;
}
