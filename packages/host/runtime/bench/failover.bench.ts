// `npm run bench failover`: how fast a session moves to another process when its process dies mid-turn. Two real `aalis
// chat` processes on one throwaway PostgreSQL share a session; the one making its first model call (told by its API
// key) is SIGKILLed while the model streams; printed: kill → the stop marker of its turn (written by the survivor), and
// kill → the survivor's next model call for the session, for the default lease (4 s) and a short one (1.5 s).
import { PostgresDatabase } from '@aalis/postgres';
import { startThrowawayPostgres } from '@aalis/postgres/throwaway';
import { startOpenAiTestServer } from '@aalis/testing';
import { slowReply, stampCalls, startWriter } from '../src/multi-process.case.js';
import { temporaryWorkspace, waitFor } from '../src/spawn-aalis.case.js';

const ROUNDS = 3;

async function once(ttlMs: number, round: number): Promise<{ marker: number; next: number }> {
  const postgres = await startThrowawayPostgres();
  const server = await startOpenAiTestServer({ models: ['test-model'] });
  for (let i = 0; i < 30; i++) server.enqueue(slowReply(400));
  // Each process its own API key: the model server's log tells which one made a call (an input may be answered by the
  // session's owner rather than by the process it was written to).
  const config = (apiKey: string) => `locale: en
consoleLogLevel: off
llm: { baseUrl: ${server.url}, model: test-model, apiKey: ${apiKey} }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  storage: { leaseTtlMs: ${ttlMs} }
`;
  const spaces = [temporaryWorkspace(config('key-p1')), temporaryWorkspace(config('key-p2'))];
  const env = { AALIS_DATABASE_URL: postgres.url };
  const session = `s${round}`;
  const writers = ['p1', 'p2'].map((name, index) =>
    startWriter({ cwd: spaces[index]!.dir, env, name, session, count: 6, gapMs: 150 }),
  );
  // Killed: the process that makes the session's first model call (the owner); the other one survives.
  let killedAt = 0;
  let next = 0;
  let victim: string | undefined;
  stampCalls(server, (call) => {
    const sender = call.request.headers.authorization;
    if (!victim) {
      victim = sender;
      killedAt = Date.now();
      writers[sender === 'Bearer key-p1' ? 0 : 1]!.process.child.kill('SIGKILL');
    } else if (!next && sender !== victim) {
      next = Date.now() - killedAt;
    }
  });
  await waitFor(() => victim, { timeoutMs: 60_000, what: 'the first model call of the session' });
  const survivor = writers[victim === 'Bearer key-p1' ? 1 : 0]!;
  await survivor.done;
  await survivor.process.exited;
  const database = new PostgresDatabase(postgres.url);
  const [row] = await database.query<{ timestamp: number }>(
    "SELECT MIN(timestamp) AS timestamp FROM memory_messages WHERE kind = 'turn-stopped'",
  );
  await database.close();
  await server.close();
  for (const space of spaces) space.remove();
  postgres.stop();
  return { marker: (row?.timestamp ?? Number.NaN) - killedAt, next };
}

for (const ttlMs of [4000, 1500]) {
  const results: Array<{ marker: number; next: number }> = [];
  for (let round = 0; round < ROUNDS; round++) results.push(await once(ttlMs, round));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `lease ${ttlMs} ms: kill → stop marker median ${median(results.map((r) => r.marker))} ms, kill → survivor's next model call median ${median(results.map((r) => r.next))} ms (${ROUNDS} rounds: ${results.map((r) => `${r.marker}/${r.next}`).join(', ')})`,
  );
}
