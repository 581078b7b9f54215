// `npm run bench workflow`: the orchestration overhead of a 20-node workflow with 5 agent nodes (real agent, real
// SQLite, the scripted OpenAI-compatible server) against the same work done directly in the same order in the same
// process — 5 turns through agent.handleMessage and 15 tool calls through tools.execute — measured alternately.
// The goal: ≤ 5 ms of orchestration per node beyond the work itself.
import { tools } from '@aalis/api-tools';
import { textReply } from '@aalis/testing';
import { startWorkflowHarness } from '../src/workflow-fixture.case.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const NODES = 20;
const AGENT_EVERY = 4; // nodes 0, 4, 8, 12, 16 are agent nodes

/** A chain: each node needs the one before, so the engine cannot win time by running nodes side by side. */
function chain(): string {
  const lines = ['nodes:'];
  for (let index = 0; index < NODES; index += 1) {
    lines.push(`  - id: n${index}`);
    if (index > 0) lines.push(`    needs: [n${index - 1}]`);
    if (index % AGENT_EVERY === 0) {
      lines.push('    kind: agent', '    session: cli:owner', `    task: "step ${index}"`);
    } else {
      lines.push('    kind: tool', '    tool: count', `    arguments: { label: "n${index}" }`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const harness = await startWorkflowHarness();
const toolService = harness.booted.app.services.selected(tools)!.impl;
harness.write('chain', chain());
const OWNER = { platform: 'cli', userId: 'owner' };

async function viaWorkflow(): Promise<number> {
  for (let index = 0; index < NODES; index += AGENT_EVERY) harness.server.enqueue(textReply(`done ${index}`));
  const started = performance.now();
  const run = await harness.service.start('chain', {}, { trigger: 'manual', by: OWNER });
  const ended = await harness.service.wait(run.id);
  const ms = performance.now() - started;
  if (ended?.status !== 'succeeded') throw new Error(`run ${run.id} ended ${ended?.status}: ${ended?.error}`);
  return ms;
}

async function direct(): Promise<number> {
  for (let index = 0; index < NODES; index += AGENT_EVERY) harness.server.enqueue(textReply(`done ${index}`));
  const started = performance.now();
  for (let index = 0; index < NODES; index += 1) {
    if (index % AGENT_EVERY === 0) {
      await harness.agent.handleMessage({
        sessionId: 'cli:owner',
        platform: 'cli',
        sender: {},
        content: `step ${index}`,
        source: 'workflow',
        triggerType: 'proactive',
        actor: OWNER,
      });
    } else {
      const result = await toolService.execute({
        name: 'count',
        arguments: { label: `n${index}` },
        context: {
          sessionId: 'workflow:bench',
          platform: 'cli',
          participants: [OWNER],
          inbound: { source: 'workflow', fromTurn: undefined, messageId: undefined },
          authorised: [OWNER],
          signal: new AbortController().signal,
          turnId: 'bench',
          callId: `bench:${index}`,
          acceptsImages: false,
        },
      });
      if (result.isError) throw new Error(result.content);
    }
  }
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// Warm-up: the first turns compile the paths both take.
await viaWorkflow();
await direct();
const engine: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternating, so a change of load on the machine falls on both.
  if (round % 2 === 0) {
    engine.push(await viaWorkflow());
    baseline.push(await direct());
  } else {
    baseline.push(await direct());
    engine.push(await viaWorkflow());
  }
}
const perNode = (median(engine) - median(baseline)) / NODES;
console.log(
  `workflow of ${NODES} nodes (${NODES / AGENT_EVERY} agent turns, ${NODES - NODES / AGENT_EVERY} tool calls), ${ROUNDS} rounds`,
);
console.log(`  through the workflow engine: median ${median(engine).toFixed(1)} ms per run`);
console.log(`  the same work done directly: median ${median(baseline).toFixed(1)} ms per run`);
console.log(`  ratio ${(median(engine) / median(baseline)).toFixed(2)}×`);
console.log(`  orchestration per node: ${perNode.toFixed(2)} ms (goal ≤ 5 ms) ${perNode <= 5 ? '✔' : '✘'}`);
await harness.close();
