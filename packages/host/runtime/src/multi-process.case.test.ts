// The overlap check of the multi-process tests must be able to fail: turns of one session built from stamped model
// calls, and overlapping ones reported.
import type { RecordedRequest } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { overlappingTurns, type StampedCall, turnSpans } from './multi-process.case.js';

function call(tag: string, sender: string, receivedAt: number, endedAt?: number, last = 'user'): StampedCall {
  const messages = [{ role: 'user', content: `hello ${tag}` }, ...(last === 'tool' ? [{ role: 'tool' }] : [])];
  const request = {
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${sender}` },
    body: { messages },
  } as unknown as RecordedRequest; // only the fields turnSpans reads
  return { request, receivedAt, ...(endedAt === undefined ? {} : { endedAt }) };
}

describe('turnSpans and overlappingTurns', () => {
  it('joins a tool turn’s calls of one process into one turn and finds no overlap in turns one after the other', () => {
    const spans = turnSpans([
      call('[s1 p1 m1]', 'a', 0, 100),
      call('[s1 p1 m1]', 'a', 110, 200, 'tool'),
      call('[s1 p2 m2]', 'b', 210, 300),
    ]);
    expect(spans.map((span) => [span.tag, span.sender, span.start, span.end, span.calls.length])).toEqual([
      ['[s1 p1 m1]', 'a', 0, 200, 2],
      ['[s1 p2 m2]', 'b', 210, 300, 1],
    ]);
    expect(overlappingTurns(spans)).toEqual([]);
  });

  it('reports turns of one session on two processes at once, and one inside another process’s tool turn', () => {
    const atOnce = overlappingTurns(turnSpans([call('[s1 p1 m1]', 'a', 0, 100), call('[s1 p2 m2]', 'b', 50, 150)]));
    expect(atOnce.map(([x, y]) => [x.sender, y.sender])).toEqual([['a', 'b']]);
    const inside = overlappingTurns(
      turnSpans([
        call('[s1 p1 m1]', 'a', 0, 100),
        call('[s1 p2 m2]', 'b', 120, 140),
        call('[s1 p1 m1]', 'a', 150, 250, 'tool'),
      ]),
    );
    expect(inside).toHaveLength(1);
  });

  it('counts a call still open as running until now, and keeps sessions apart', () => {
    expect(
      overlappingTurns(turnSpans([call('[s1 p1 m1]', 'a', 0), call('[s1 p2 m2]', 'b', 500, 600)], 1000)),
    ).toHaveLength(1);
    expect(overlappingTurns(turnSpans([call('[s1 p1 m1]', 'a', 0, 100), call('[s2 p2 m1]', 'b', 50, 150)]))).toEqual(
      [],
    );
  });
});
