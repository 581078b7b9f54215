import { describe, expect, it } from 'vitest';
import { Trace } from './trace.js';

const entry = (n: number) => ({
  at: n,
  sessionId: 's',
  model: 'm',
  messages: [{ role: 'user' as const, content: `request ${n}` }],
  tools: [],
});

describe('观测: trace', () => {
  it('Trace 需要显式开启: off by default, nothing is kept', () => {
    const trace = new Trace();
    trace.record(entry(1));
    expect(trace.enabled).toBe(false);
    expect(trace.calls()).toEqual([]);
  });

  it('且有数量上限: keeps the last maxCalls requests with their messages and tools', () => {
    const trace = new Trace({ maxCalls: 2 });
    for (const n of [1, 2, 3]) trace.record(entry(n));
    expect(trace.calls().map((call) => call.at)).toEqual([2, 3]);
    expect(trace.calls()[1]!.messages[0]!.content).toBe('request 3');
    trace.clear();
    expect(trace.calls()).toEqual([]);
  });
});
