// The concurrency bench's raw floor, in a process of its own (so its CPU figure is its own work and its heap is not
// the product's): on { url, bodies, count, turns, latencyMs } it runs `count` clients at once, each replaying the
// agent's two request bodies over fetch `turns` times, reading every SSE stream to its end, and sends back the same
// figures the bench takes of the product (elapsed ms, added latency per turn, CPU ms of this process).
interface FloorOrder {
  url: string;
  bodies: [string, string];
  count: number;
  turns: number;
  latencyMs: number;
}

async function rawCall(url: string, body: string): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reader = response.body!.getReader();
  for (;;) if ((await reader.read()).done) break;
}

async function run(order: FloorOrder): Promise<{ elapsedMs: number; added: number[]; cpuMs: number }> {
  const added: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: order.count }, async () => {
      for (let index = 0; index < order.turns; index++) {
        const began = performance.now();
        await rawCall(order.url, order.bodies[0]);
        await rawCall(order.url, order.bodies[1]);
        added.push(performance.now() - began - 2 * order.latencyMs);
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { elapsedMs, added, cpuMs: (used.user + used.system) / 1000 };
}

process.on('message', (order: FloorOrder) => {
  run(order).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
