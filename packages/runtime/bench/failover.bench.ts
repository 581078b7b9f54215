// `npm run bench failover`: how fast a session moves to another process when its process dies mid-turn (issue #16).
// Two real `aalis chat` processes on one throwaway PostgreSQL share a session; the one running a turn is SIGKILLed
// while the model streams; printed: kill → the stop marker of its turn (written by the survivor), and kill → the
// survivor's next model call for the session, for the default lease (4 s) and a short one (1.5 s).
import { PostgresDatabase } from '@aalis/postgres';
import { startThrowawayPostgres } from '@aalis/postgres/throwaway';
import { startOpenAiTestServer } from '@aalis/testing';
import { slowReply, startWriter, watchRequests } from '../src/multi-process.case.js';
import { temporaryWorkspace } from '../src/spawn-aalis.case.js';

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
  let killedAt = 0;
  let next = 0;
  const watch = watchRequests(server, (interval) => {
    const sender = interval.request.headers.authorization;
    if (!killedAt && sender === 'Bearer key-p1') {
      killedAt = Date.now();
      writers[0]!.process.child.kill('SIGKILL');
    } else if (killedAt && !next && sender === 'Bearer key-p2') {
      next = Date.now() - killedAt;
    }
  });
  await writers[1]!.done;
  await writers[1]!.process.exited;
  watch.stop();
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
