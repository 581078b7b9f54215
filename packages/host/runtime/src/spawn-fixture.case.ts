// The hooks of a test file that runs `aalis` processes against one scripted model server: the server for the whole
// file, reset after each test, and workspaces removed after the test that made them. Apart from spawn-aalis.case.ts
// because the benchmarks use that file outside vitest.
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { temporaryWorkspace } from './spawn-aalis.case.js';

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
