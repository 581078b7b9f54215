// Workflows on PostgreSQL with two hosts: a run is executed by exactly one process (the other's sweep never takes a
// run whose lease is held), and a run whose process stops mid-run is resumed by the other from its last completed
// step; a cancel asked on the other host reaches the process that runs it.
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkflowHarness, until, type WorkflowHarness } from './workflow-fixture.case.js';

const open: WorkflowHarness[] = [];
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close().catch(() => undefined);
  await server?.close();
  server = undefined;
});

const OWNER = { platform: 'cli', userId: 'owner' };
const PAUSED = `nodes:
  - id: first
    kind: tool
    tool: count
    arguments: { label: first }
  - id: pause
    kind: wait
    needs: [first]
    duration: 1500ms
  - id: last
    kind: tool
    tool: count
    needs: [pause]
    arguments: { label: last }
`;

async function twoHosts(): Promise<[WorkflowHarness, WorkflowHarness]> {
  const url = await throwawayDatabase();
  server = await startOpenAiTestServer({ models: ['test-model'] });
  const options = {
    server,
    storage: { database: url, leaseTtlMs: 1000 },
    workflowConfig: { resumeIntervalMs: 100 },
  };
  const a = await startWorkflowHarness(options);
  open.push(a);
  const b = await startWorkflowHarness(options);
  open.push(b);
  for (const host of [a, b]) host.write('paused', PAUSED);
  return [a, b];
}

describe.skipIf(postgresBinDir() === undefined)('workflows on PostgreSQL, two hosts', () => {
  it('one process executes a run: the other never takes it while its lease is held', async () => {
    const [a, b] = await twoHosts();
    const run = await a.service.start('paused', {}, { trigger: 'manual', by: OWNER });
    // B can wait for it: it sees the run end through the database.
    const ended = await b.service.wait(run.id);
    expect(ended?.status).toBe('succeeded');
    expect(a.counted).toEqual(['first', 'last']);
    expect(b.counted).toEqual([]);
  });

  it('a run whose process stops mid-run is resumed by the other from its last completed step', async () => {
    const [a, b] = await twoHosts();
    const run = await a.service.start('paused', {}, { trigger: 'manual', by: OWNER });
    await until(
      async () => (await b.service.run(run.id))?.steps.some((step) => step.key === 'pause') === true,
      'the wait',
    );
    await a.close();
    open.splice(open.indexOf(a), 1);
    const ended = await b.service.wait(run.id);
    expect(ended?.status).toBe('succeeded');
    expect(a.counted).toEqual(['first']);
    expect(b.counted).toEqual(['last']);
  });

  it('a cancel asked on one host stops the run where it runs', async () => {
    const [a, b] = await twoHosts();
    const run = await a.service.start('paused', {}, { trigger: 'manual', by: OWNER });
    await until(() => a.counted.length === 1, 'the first step');
    expect(await b.service.cancel(run.id)).toBe(true);
    await until(async () => (await a.service.run(run.id))?.status === 'cancelled', 'the cancel on A');
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect([...a.counted, ...b.counted]).toEqual(['first']);
  });
});
