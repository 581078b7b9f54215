// Conformance: the workflow requests and the workflow webhook through a real host. Owners read, check, save, run
// and cancel workflows and see every step; a workflow with problems is refused on save with the line of each; other
// accounts are refused every workflow request; the webhook starts a run only with the secret, only for a workflow
// that lists it as a trigger.
import type { SessionClient } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, waitFor } from './harness.case.js';

const SECRET = 'webhook-secret-for-tests';
const file = hostPerFile({ extraConfig: `  workflow: { webhookSecret: ${SECRET} }\n` });

const ADD = `description: multiplies
inputs:
  a: { type: number, default: 6 }
nodes:
  - id: product
    kind: tool
    tool: calculator
    arguments: { expression: "{{ inputs.a }} * 7" }
  - id: done
    kind: condition
    needs: [product]
    if: "nodes.product.output != ''"
triggers:
  webhook: true
`;

const WAITS = `nodes:\n  - id: pause\n    kind: wait\n    duration: 1h\n`;

async function owner(): Promise<SessionClient> {
  return file.connected();
}

describe('workflow requests', () => {
  it('save refuses a workflow with problems (each with its line) and keeps nothing; validate says the same', async () => {
    const client = await owner();
    const cycle = `nodes:\n  - id: a\n    kind: wait\n    duration: 1s\n    needs: [b]\n  - id: b\n    kind: teleport\n`;
    const { problems } = await client.request('workflows.validate', { name: 'broken', source: cycle });
    expect(problems.map((problem) => problem.line)).toEqual([7]);
    await expect(client.request('workflows.save', { name: 'broken', source: cycle })).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_INVALID',
    });
    expect((await client.request('workflows.list', {})).workflows.map((entry) => entry.name)).not.toContain('broken');
  });

  it('saves, lists, shows the graph, runs a workflow and shows every step', async () => {
    const client = await owner();
    const saved = await client.request('workflows.save', { name: 'multiply', source: ADD });
    expect(saved.workflow.nodes).toEqual([
      { id: 'product', kind: 'tool', needs: [] },
      { id: 'done', kind: 'condition', needs: ['product'] },
    ]);
    expect((await client.request('workflows.list', {})).workflows).toContainEqual({
      name: 'multiply',
      description: 'multiplies',
    });
    expect((await client.request('workflows.get', { name: 'multiply' })).workflow.source).toBe(ADD);
    const { run } = await client.request('workflows.run', { name: 'multiply', inputs: { a: 3 } });
    expect(run).toMatchObject({ workflow: 'multiply', status: 'running', by: { platform: 'webui', userId: 'owner' } });
    let detail = (await client.request('runs.get', { runId: run.id })).run;
    await waitFor(async () => {
      detail = (await client.request('runs.get', { runId: run.id })).run;
      return detail.status !== 'running';
    });
    expect(detail.status).toBe('succeeded');
    expect(Object.fromEntries(detail.steps.map((step) => [step.key, step.status]))).toEqual({
      product: 'succeeded',
      done: 'succeeded',
    });
    expect(String(detail.steps.find((step) => step.key === 'product')!.output)).toContain('21');
    expect((await client.request('runs.list', { workflow: 'multiply' })).runs[0]!.id).toBe(run.id);
    await expect(client.request('workflows.run', { name: 'multiply', inputs: { a: 'three' } })).rejects.toMatchObject({
      code: 'AALIS_WORKFLOW_INPUT_INVALID',
    });
  });

  it('cancels a running run', async () => {
    const client = await owner();
    await client.request('workflows.save', { name: 'waits', source: WAITS });
    const { run } = await client.request('workflows.run', { name: 'waits' });
    expect((await client.request('runs.cancel', { runId: run.id })).cancelled).toBe(true);
    const detail = (await client.request('runs.get', { runId: run.id })).run;
    expect(detail.status).toBe('cancelled');
    expect(detail.steps[0]).toMatchObject({ key: 'pause', status: 'cancelled' });
    expect((await client.request('runs.cancel', { runId: run.id })).cancelled).toBe(false);
  });

  it('refuses every workflow request to an account that is not an owner', async () => {
    const alice = file.track(clientFor(file.host, await loginCookie(file.host, 'alice')));
    await alice.connect();
    for (const [type, params] of [
      ['workflows.list', {}],
      ['workflows.get', { name: 'multiply' }],
      ['workflows.validate', { name: 'x', source: WAITS }],
      ['workflows.save', { name: 'x', source: WAITS }],
      ['workflows.delete', { name: 'multiply' }],
      ['workflows.run', { name: 'multiply' }],
      ['runs.list', {}],
      ['runs.get', { runId: 'wr_000000000000' }],
      ['runs.cancel', { runId: 'wr_000000000000' }],
    ] as const) {
      await expect(alice.request(type, params as never), type).rejects.toMatchObject({ code: 'AALIS_WEBUI_FORBIDDEN' });
    }
  });
});

describe('the workflow webhook', () => {
  const call = (name: string, secret: string | undefined, body?: unknown) =>
    fetch(`${file.host.base}/api/v1/workflows/${name}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('starts a run with the secret, for a workflow that lists webhook as a trigger, with its inputs', async () => {
    const client = await owner();
    await client.request('workflows.save', { name: 'multiply', source: ADD });
    await client.request('workflows.save', { name: 'waits', source: WAITS });
    for (const [name, secret] of [
      ['multiply', 'wrong'],
      ['multiply', undefined],
      ['waits', SECRET],
      ['nothing', SECRET],
    ] as const) {
      const refused = await call(name, secret, {});
      expect(refused.status, `${name} ${secret}`).toBe(401);
      expect((await refused.json()) as unknown).toMatchObject({
        ok: false,
        error: { code: 'AALIS_WORKFLOW_WEBHOOK_REFUSED' },
      });
    }
    const accepted = await call('multiply', SECRET, { a: 5 });
    expect(accepted.status).toBe(202);
    const { result } = (await accepted.json()) as { result: { runId: string } };
    await waitFor(async () => (await client.request('runs.get', { runId: result.runId })).run.status === 'succeeded');
    const run = (await client.request('runs.get', { runId: result.runId })).run;
    expect(run).toMatchObject({ trigger: 'webhook', inputs: { a: 5 } });
    expect(String(run.steps.find((step) => step.key === 'product')!.output)).toContain('35');
  });
});
