// The raw floor: a framework's own request bodies, replayed in order over fetch, each response read to its end
// (SSE or JSON, as the body asks) — the HTTP work any client must do, and nothing else.
export async function replayBodies(url: string, bodies: readonly string[]): Promise<void> {
  for (const body of bodies) {
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body,
    });
    if (!response.ok) throw new Error(`raw floor: the server answered ${response.status}: ${await response.text()}`);
    const reader = response.body!.getReader();
    for (;;) if ((await reader.read()).done) break;
  }
}
