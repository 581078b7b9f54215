// Shared test setup: the real agent harness (SQLite, the OpenAI-compatible test server) with the workflow plugin
// and a counting tool, and workflow files written into its data directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionManager } from '@aalis/api-session-manager';
import type { Tool } from '@aalis/api-tools';
import { type WorkflowService, workflow } from '@aalis/api-workflow';
import { type Harness, type HarnessOptions, startHarness } from '@aalis/plugin-agent/testing';
import workflowPlugin from './index.js';

export interface WorkflowHarness extends Harness {
  service: WorkflowService;
  /** Writes <dataDir>/workflows/<name>.yaml. */
  write(name: string, yaml: string): void;
  /** The calls the `count` tool received, in order. */
  counted: string[];
}

export async function startWorkflowHarness(
  options: HarnessOptions & { counted?: string[]; workflowConfig?: Record<string, unknown> } = {},
): Promise<WorkflowHarness> {
  const counted = options.counted ?? [];
  const count: Tool<{ label: string }> = {
    name: 'count',
    description: 'Counts a call (a side effect the tests can see).',
    parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    handler({ label }) {
      counted.push(label);
      return JSON.stringify({ label, calls: counted.length });
    },
  };
  const harness = await startHarness({
    ...options,
    tools: [...(options.tools ?? []), count],
    extra: [...(options.extra ?? []), [workflowPlugin, { resumeIntervalMs: 200, ...options.workflowConfig }]],
  });
  const services = harness.booted.app.services;
  await services.selected(sessionManager)!.impl.ensure({ id: 'cli:owner', kind: 'cli', platform: 'cli' });
  const dir = join(harness.dataDir, 'workflows');
  return Object.assign(harness, {
    service: services.selected(workflow)!.impl,
    counted,
    write(name: string, yaml: string) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}.yaml`), yaml);
    },
  });
}

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
