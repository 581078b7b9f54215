// The concurrency bench's raw floor, in a process of its own (so its CPU figure is its own work and its heap is not
// the product's): on { url, bodies, count, turns, latencyMs } it runs `count` clients at once, each replaying the
// agent's request bodies over fetch, turn by turn (its n-th turn sends bodies 2n and 2n + 1, the two calls of a
// session's n-th turn), reading every SSE stream to its end, and sends back the same
// figures the bench takes of the product (elapsed ms, added latency and wall-clock span per turn, CPU ms of this
// process, event-loop delay and GC pauses). Each call carries `x-bench-tag: <client>/<turn>`, so the model server's
// timings of it can be matched to the turn.
import { type Observed, observe } from './concurrency-observe.js';
import type { TurnSpan } from './concurrency-tail.js';

interface FloorOrder {
  url: string;
  /** Two per turn, in order: turn n's calls are bodies[2n] and bodies[2n + 1]. */
  bodies: string[];
  count: number;
  turns: number;
  latencyMs: number;
}

async function rawCall(url: string, body: string, tag: string): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bench-tag': tag },
    body,
  });
  const reader = response.body!.getReader();
  for (;;) if ((await reader.read()).done) break;
}

async function run(
  order: FloorOrder,
): Promise<{ elapsedMs: number; added: number[]; spans: TurnSpan[]; cpuMs: number; observed: Observed }> {
  const added: number[] = [];
  const spans: TurnSpan[] = [];
  const stop = observe();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: order.count }, async (_, client) => {
      for (let index = 0; index < order.turns; index++) {
        const tag = `${client}/${index}`;
        const began = performance.now();
        await rawCall(order.url, order.bodies[2 * index]!, tag);
        await rawCall(order.url, order.bodies[2 * index + 1]!, tag);
        const ended = performance.now();
        added.push(ended - began - 2 * order.latencyMs);
        spans.push([tag, performance.timeOrigin + began, performance.timeOrigin + ended]);
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { elapsedMs, added, spans, cpuMs: (used.user + used.system) / 1000, observed: stop() };
}

process.on('message', (order: FloorOrder) => {
  run(order).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
