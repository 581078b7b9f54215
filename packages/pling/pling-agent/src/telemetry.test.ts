import { describe, expect, it } from 'vitest';
import { Telemetry } from './telemetry.js';

describe('观测: telemetry', () => {
  it('汇总模型调用、工具调用、token、估算成本、耗时、重试与错误率', () => {
    const telemetry = new Telemetry({ inputPerMillionTokens: 2, outputPerMillionTokens: 8 });
    telemetry.recordModelCall({ durationMs: 100, ok: false });
    telemetry.recordRetry();
    telemetry.recordModelCall({ durationMs: 50, ok: true, promptTokens: 1000, completionTokens: 500 });
    telemetry.recordToolCall({ durationMs: 5, ok: true });
    telemetry.recordToolCall({ durationMs: 7, ok: false });
    expect(telemetry.snapshot()).toEqual({
      modelCalls: 2,
      failedModelCalls: 1,
      retries: 1,
      toolCalls: 2,
      failedToolCalls: 1,
      promptTokens: 1000,
      completionTokens: 500,
      totalTokens: 1500,
      estimatedTokenCalls: 0,
      estimatedCost: (1000 * 2 + 500 * 8) / 1_000_000,
      modelDurationMs: 150,
      toolDurationMs: 12,
      errorRate: 0.5,
    });
  });

  it('without prices the cost is undefined; reset() starts over and notifies subscribers', () => {
    const telemetry = new Telemetry();
    let notified = 0;
    const unsubscribe = telemetry.subscribe(() => notified++);
    telemetry.recordModelCall({ durationMs: 1, ok: true, promptTokens: 3, estimated: true });
    const before = telemetry.getSnapshot();
    expect(before.estimatedCost).toBeUndefined();
    expect(before.estimatedTokenCalls).toBe(1);
    expect(telemetry.getSnapshot()).toBe(before);
    telemetry.reset();
    expect(telemetry.snapshot()).toMatchObject({ modelCalls: 0, totalTokens: 0, errorRate: 0 });
    unsubscribe();
    telemetry.recordRetry();
    expect(notified).toBe(2);
  });
});
