// The history bench's replay floor, in a process of its own (its CPU figure is its own work, its heap is not the
// agent's 100k messages): on { url, bodies } it sends the agent's request bodies over fetch one after the other,
// reads every SSE stream to its end and answers { cpuMs, wallMs } of that work.
async function rawCall(url: string, body: string): Promise<void> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reader = response.body!.getReader();
  for (;;) if ((await reader.read()).done) break;
}

process.on('message', (order: { url: string; bodies: string[] }) => {
  void (async () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const body of order.bodies) await rawCall(order.url, body);
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    process.send!({ cpuMs: (used.user + used.system) / 1000, wallMs });
  })().catch((error: unknown) => process.send!({ error: String(error) }));
});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
