// The hooks of a test file that runs `aalis` processes against one scripted model server: the server for the whole
// file, reset after each test, and workspaces removed after the test that made them. Apart from spawn-aalis.case.ts
// because the benchmarks use that file outside vitest.
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  runAalis,
  serverConfig,
  spawnAalis,
  temporaryWorkspace,
  unfinishedAnswer,
  waitFor,
} from './spawn-aalis.case.js';

export interface SpawnFixture {
  /** The file's scripted model server (serves `test-model`), reset after each test. */
  readonly server: OpenAiTestServer;
  /** A new workspace holding this configuration, removed after the test; returns its directory. */
  workspace(config: string): string;
  /** The request bodies the model server received, oldest first. */
  bodies<Body>(): Body[];
}

/** Registers the hooks of a file that runs `aalis` processes against one scripted model server. */
export function useSpawnFixture(options: Parameters<typeof startOpenAiTestServer>[0] = { models: ['test-model'] }) {
  let server: OpenAiTestServer | undefined;
  const workspaces: Array<{ remove(): void }> = [];
  beforeAll(async () => {
    server = await startOpenAiTestServer(options);
  });
  afterAll(() => server?.close());
  afterEach(() => {
    for (const workspace of workspaces.splice(0)) workspace.remove();
    server?.reset();
  });
  const fixture: SpawnFixture = {
    get server() {
      if (!server) throw new Error('the model server starts in beforeAll: use it inside a test');
      return server;
    },
    workspace(config) {
      const created = temporaryWorkspace(config);
      workspaces.push(created);
      return created.dir;
    },
    bodies: <Body>() => fixture.server.chatBodies() as Body[],
  };
  return fixture;
}

/**
 * `aalis chat` gets `signal` while a reply streams: the turn stops cleanly (exit 0, the signal named on standard
 * error, nothing half-written on standard output, the model request aborted), and the next run's request carries
 * the question and the stop marker but not the unfinished words.
 */
export async function expectDrainOnSignal(fixture: SpawnFixture, signal: 'SIGTERM' | 'SIGHUP'): Promise<void> {
  const cwd = fixture.workspace(serverConfig(fixture.server.url));
  const chatRequests = () => fixture.server.requests.filter((request) => request.path === '/v1/chat/completions');
  fixture.server.enqueue(unfinishedAnswer('Once upon a time'));
  const run = spawnAalis({ cwd, args: ['chat'] });
  run.child.stdin!.write('Tell me a long story.\n');
  await waitFor(() => chatRequests().length > 0, { what: 'the model request' });
  run.child.kill(signal);
  expect(await run.exited).toBe(0);
  expect(run.stderr()).toContain(`Received ${signal}`);
  expect(run.stdout()).toBe('');
  const [request] = chatRequests();
  await request!.closed;
  expect(request!.abortedByClient).toBe(true);

  fixture.server.enqueue(textReply('Sorry, where were we?'));
  const again = await runAalis({ cwd, args: ['chat'], input: 'Are you there?\n' });
  expect(again.code).toBe(0);
  const next = fixture
    .bodies<{ messages: Array<{ content: string | null }> }>()[1]!
    .messages.map((message) => message.content ?? '')
    .join('\n');
  expect(next).toContain('Tell me a long story.');
  expect(next).toContain('[Stopped] The previous turn was stopped before it finished');
  expect(next).not.toContain('Once upon a time');
}
