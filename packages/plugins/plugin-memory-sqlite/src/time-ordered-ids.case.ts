// Shared by the SQLite and PostgreSQL store tests: both hand out version-7 message ids (message-id.ts), so the ids of
// one moment sit together in the id index.
import type { MemoryFixture } from '@aalis/api-memory/conformance';
import { expect, it } from 'vitest';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (id: string) => Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

export function itHandsOutTimeOrderedIds(createFixture: (options: { hooks: boolean }) => Promise<MemoryFixture>): void {
  it('hands out version-7 ids carrying the time of the append (appends write next to each other in the id index)', async () => {
    const fixture = await createFixture({ hooks: false });
    try {
      const before = Date.now();
      const first = await fixture.memory.append('s1', [{ role: 'user', content: 'a' }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await fixture.memory.append('s1', [
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ]);
      const after = Date.now();
      const ids = [...first, ...second].map((message) => message.id!);
      for (const id of ids) expect(id).toMatch(V7);
      const times = ids.map(millisecondsOf);
      expect(times[0]).toBeGreaterThanOrEqual(before);
      expect(times[2]).toBeLessThanOrEqual(after);
      expect(times[1]).toBeGreaterThan(times[0]!);
    } finally {
      await fixture.dispose();
    }
  });
}
