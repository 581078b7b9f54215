// Runs workflows: each ready node (its needs finished) starts at once, every step's state is stored before and after
// it runs, and a run that was interrupted (a restart, a killed process) resumes from what was stored: a step that
// succeeded or was skipped is never run again; a wait keeps its moment; a sub-workflow keeps its child run.

import { randomBytes } from 'node:crypto';
import type { Lease } from '@aalis/api-storage';
import type {
  InnerNodeSpec,
  RunStatus,
  RunTrigger,
  StepStatus,
  WorkflowDefinition,
  WorkflowNode,
} from '@aalis/api-workflow';
import type { Logger } from '@aalis/core';
import { type Identity, isPlainObject } from '@aalis/schema-message';
import type { Translate } from './definition-parser.js';
import { durationMs } from './durations.js';
import { type ExpressionScope, evaluateExpression, isTrue, renderTemplate } from './expressions.js';
import type { RunEnd, RunRow, RunStore, StepRow } from './run-store.js';

/** What a node runner gets besides its rendered values. */
export interface NodeContext {
  readonly run: RunRow;
  readonly nodeId: string;
  readonly stepKey: string;
  readonly signal: AbortSignal;
  /** What this step remembered before an interruption (a child run id, a turn id). */
  readonly remembered: Readonly<Record<string, unknown>>;
  /** Stores more of the step's input while it runs, so a resumed run finds it (a child run id, say). */
  remember(values: Record<string, unknown>): Promise<void>;
}

/** The node kinds that reach outside the engine: turns, tools, messages, other runs. */
export interface NodeRunners {
  agent(values: { session: string; task: string }, context: NodeContext): Promise<unknown>;
  tool(values: { tool: string; arguments: Record<string, unknown> }, context: NodeContext): Promise<unknown>;
  send(values: { session: string; text: string }, context: NodeContext): Promise<unknown>;
  workflow(values: { workflow: string; inputs: Record<string, unknown> }, context: NodeContext): Promise<unknown>;
}

export interface RunEngineDeps {
  readonly store: RunStore;
  readonly runners: NodeRunners;
  /** Texts of step errors, in the host's language. */
  readonly t: Translate;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Called after every stored change of a run or a step (the page's live view). */
  readonly changed?: (runId: string) => void;
}

export interface StartRequest {
  readonly definition: WorkflowDefinition;
  readonly inputs: Record<string, unknown>;
  readonly trigger: RunTrigger;
  readonly by?: Identity;
  readonly parentRunId?: string;
  /** Takes the run's lease once it has an id (the process holding it executes the run). */
  readonly claim?: (runId: string) => Promise<Lease | undefined>;
}

interface LiveRun {
  readonly controller: AbortController;
  readonly done: Promise<RunRow>;
}

/** Why a step stopped without a result of its own: the run was cancelled or failed elsewhere. */
class StepAborted extends Error {}

const TERMINAL: ReadonlySet<StepStatus> = new Set(['succeeded', 'skipped', 'failed', 'cancelled']);

export function newRunId(): string {
  return `wr_${randomBytes(6).toString('hex')}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waits `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new StepAborted());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StepAborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class RunEngine {
  private readonly live = new Map<string, LiveRun>();
  private readonly now: () => number;
  /** Set while the host shuts down: aborted steps are not stored as cancelled, runs stay running. */
  private suspending = false;
  /** Runs stopped here without ending (their lease was lost): another process resumes them. */
  private readonly suspended = new Set<string>();

  constructor(private readonly deps: RunEngineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Stores a new run and starts it here. Resolves once it is stored (not when it ends). */
  async start(request: StartRequest): Promise<RunRow> {
    const row: RunRow = {
      id: newRunId(),
      workflow: request.definition.name,
      status: 'running',
      trigger: request.trigger,
      inputs: request.inputs,
      definition: request.definition,
      ...(request.by ? { by: request.by } : {}),
      ...(request.parentRunId ? { parentRunId: request.parentRunId } : {}),
      createdAt: this.now(),
    };
    const lease = await request.claim?.(row.id);
    try {
      await this.deps.store.insertRun(row);
    } catch (error) {
      await lease?.release();
      throw error;
    }
    this.deps.changed?.(row.id);
    void this.execute(row, lease);
    return row;
  }

  /** Runs (or resumes) a stored running run in this process; a run already live here is left as it is. */
  execute(row: RunRow, lease?: Lease): Promise<RunRow> {
    const existing = this.live.get(row.id);
    if (existing) return existing.done;
    const controller = new AbortController();
    // Losing the lease (this process stalled past it) means another process may take the run over: stop here
    // without ending it.
    const lost = () => {
      this.suspended.add(row.id);
      controller.abort(new StepAborted());
    };
    lease?.lost.addEventListener('abort', lost, { once: true });
    const { store } = this.deps;
    const done = this.drive(row, controller.signal)
      .then(
        (end) => end,
        (error: unknown): RunEnd | undefined => {
          if (error instanceof Suspended) return undefined;
          this.deps.logger.error('workflow run failed in the engine', { run: row.id, error: messageOf(error) });
          return { status: 'failed', error: messageOf(error), endedAt: this.now() };
        },
      )
      .then(async (end) => {
        if (end) {
          await store.endRun(row.id, end);
          this.deps.changed?.(row.id);
        }
        return (await store.getRun(row.id)) ?? { ...row, ...end };
      })
      .finally(async () => {
        this.live.delete(row.id);
        this.suspended.delete(row.id);
        lease?.lost.removeEventListener('abort', lost);
        await lease?.release().catch(() => {});
      });
    this.live.set(row.id, { controller, done });
    return done;
  }

  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  liveRuns(): string[] {
    return [...this.live.keys()];
  }

  /** Cancels a run live in this process; false when it is not live here. */
  cancel(runId: string): boolean {
    const run = this.live.get(runId);
    if (!run) return false;
    run.controller.abort(new StepAborted());
    return true;
  }

  /** The run's end when it is live here; undefined otherwise. */
  whenDone(runId: string): Promise<RunRow> | undefined {
    return this.live.get(runId)?.done;
  }

  /** Stops every live run's steps without ending the runs: they resume on the next start. */
  async suspendAll(): Promise<void> {
    const runs = [...this.live.values()];
    this.suspending = true;
    for (const run of runs) run.controller.abort(new StepAborted());
    await Promise.allSettled(runs.map((run) => run.done));
  }

  private async drive(row: RunRow, cancelled: AbortSignal): Promise<RunEnd> {
    const { store, t } = this.deps;
    const definition = row.definition;
    const steps = new Map((await store.steps(row.id)).map((step) => [step.key, step] as const));
    const results = new Map<string, { status: StepStatus; output?: unknown }>();
    for (const node of definition.nodes) {
      const step = steps.get(node.id);
      if (step && (step.status === 'succeeded' || step.status === 'skipped')) {
        results.set(node.id, { status: step.status, output: step.output });
      }
    }
    // Failing one step stops the others: the run has failed.
    const stopAll = new AbortController();
    const signal = AbortSignal.any([cancelled, stopAll.signal]);
    const scope = (extra: { item?: unknown; index?: number } = {}): ExpressionScope => ({
      inputs: row.inputs,
      nodes: Object.fromEntries(
        [...results].map(([id, result]) => [id, { status: result.status, output: result.output }] as const),
      ),
      run: { id: row.id, workflow: row.workflow },
      ...extra,
    });
    let failure: string | undefined;
    const pending = new Set(definition.nodes.filter((node) => !results.has(node.id)));
    const running = new Map<string, Promise<void>>();
    while (pending.size > 0 || running.size > 0) {
      if (!signal.aborted) {
        for (const node of [...pending]) {
          const needs = node.needs.map((need) => results.get(need));
          if (needs.some((result) => result === undefined || !TERMINAL.has(result.status))) continue;
          pending.delete(node);
          if (needs.some((result) => result!.status !== 'succeeded')) {
            // What needs a skipped node is skipped too: it would read an output that was never made.
            results.set(node.id, { status: 'skipped' });
            await this.putStep(row, steps, { key: node.id, node, status: 'skipped', attempts: 0 });
            continue;
          }
          const task = this.runNode(row, node, steps, scope, signal)
            .then((output) => {
              results.set(node.id, output === SKIPPED ? { status: 'skipped' } : { status: 'succeeded', output });
            })
            .catch((error: unknown) => {
              results.set(node.id, { status: signal.aborted && !failure ? 'cancelled' : 'failed' });
              if (!(error instanceof StepAborted) && failure === undefined) {
                failure = `${node.id}: ${messageOf(error)}`;
                stopAll.abort(new StepAborted());
              }
            })
            .finally(() => running.delete(node.id));
          running.set(node.id, task);
        }
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
    if ((this.suspending || this.suspended.has(row.id)) && cancelled.aborted && failure === undefined) {
      // Shutting down: the run stays running and resumes on the next start.
      throw new Suspended();
    }
    if (cancelled.aborted && failure === undefined) {
      return { status: 'cancelled', error: t('workflow.step.cancelled'), endedAt: this.now() };
    }
    if (failure !== undefined) return { status: 'failed', error: failure, endedAt: this.now() };
    const output =
      definition.output !== undefined
        ? await renderTemplate(definition.output, scope())
        : Object.fromEntries(
            definition.nodes
              .filter((node) => !definition.nodes.some((other) => other.needs.includes(node.id)))
              .map((node) => [node.id, results.get(node.id)?.output] as const),
          );
    return { status: 'succeeded', output, endedAt: this.now() };
  }

  private async putStep(
    row: RunRow,
    steps: Map<string, StepRow>,
    change: {
      key: string;
      node: WorkflowNode;
      kind?: string;
      status: StepStatus;
      attempts: number;
      input?: unknown;
      output?: unknown;
      error?: string;
    },
  ): Promise<StepRow> {
    const previous = steps.get(change.key);
    const now = this.now();
    const step: StepRow = {
      runId: row.id,
      key: change.key,
      nodeId: change.node.id,
      kind: change.kind ?? change.node.kind,
      status: change.status,
      ...(change.input !== undefined
        ? { input: change.input }
        : previous?.input !== undefined
          ? { input: previous.input }
          : {}),
      ...(change.output !== undefined ? { output: change.output } : {}),
      ...(change.error !== undefined ? { error: change.error } : {}),
      attempts: change.attempts,
      startedAt: change.status === 'running' || !previous ? now : previous.startedAt,
      ...(change.status !== 'running' ? { endedAt: now } : {}),
    };
    steps.set(change.key, step);
    await this.deps.store.putStep(step);
    this.deps.changed?.(row.id);
    return step;
  }

  /** Runs one node with its `when`, retries and timeout; resolves with its output, or SKIPPED. */
  private async runNode(
    row: RunRow,
    node: WorkflowNode,
    steps: Map<string, StepRow>,
    scope: (extra?: { item?: unknown; index?: number }) => ExpressionScope,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (node.when !== undefined && !isTrue(await evaluateExpression(node.when, scope()))) {
      await this.putStep(row, steps, { key: node.id, node, status: 'skipped', attempts: 0 });
      return SKIPPED;
    }
    const previous = steps.get(node.id);
    const before = previous?.status === 'running' || previous?.status === 'failed' ? previous.attempts : 0;
    // A run resumed after its last attempt was cut off still gets that attempt.
    const last = Math.max(node.retry.attempts, before + 1);
    for (let attempt = before + 1; ; attempt += 1) {
      try {
        const output = await this.withTimeout(node.timeoutMs, signal, (attemptSignal) =>
          node.kind === 'map'
            ? this.runMap(row, node, steps, scope, attemptSignal, attempt)
            : this.runSpec(row, node, node, node.id, steps, scope(), attemptSignal, attempt),
        );
        await this.putStep(row, steps, { key: node.id, node, status: 'succeeded', attempts: attempt, output });
        return output;
      } catch (error) {
        if (signal.aborted) {
          if (!this.suspending && !this.suspended.has(row.id)) {
            await this.putStep(row, steps, {
              key: node.id,
              node,
              status: 'cancelled',
              attempts: attempt,
              error: this.deps.t('workflow.step.cancelled'),
            });
          }
          throw new StepAborted();
        }
        const message = messageOf(error);
        if (attempt >= last) {
          await this.putStep(row, steps, { key: node.id, node, status: 'failed', attempts: attempt, error: message });
          throw error;
        }
        this.deps.logger.warn('workflow step failed; trying again', { run: row.id, node: node.id, attempt });
        await this.putStep(row, steps, { key: node.id, node, status: 'failed', attempts: attempt, error: message });
        await pause(node.retry.delayMs * 2 ** (attempt - 1), signal);
      }
    }
  }

  private async withTimeout<T>(ms: number, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (ms <= 0) return work(signal);
    const controller = new AbortController();
    const linked = AbortSignal.any([signal, controller.signal]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new StepAborted());
        reject(new Error(this.deps.t('workflow.step.timeout', { ms })));
      }, ms);
    });
    try {
      return await Promise.race([work(linked), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async runMap(
    row: RunRow,
    node: WorkflowNode & { kind: 'map' },
    steps: Map<string, StepRow>,
    scope: (extra?: { item?: unknown; index?: number }) => ExpressionScope,
    signal: AbortSignal,
    attempt: number,
  ): Promise<unknown[]> {
    const list = await renderTemplate(node.over, scope());
    if (!Array.isArray(list)) {
      throw new Error(this.deps.t('workflow.step.mapNotList', { type: list === null ? 'null' : typeof list }));
    }
    await this.putStep(row, steps, {
      key: node.id,
      node,
      status: 'running',
      attempts: attempt,
      input: { items: list.length },
    });
    const outputs: unknown[] = new Array(list.length);
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const index = next;
        next += 1;
        const key = `${node.id}[${index}]`;
        const done = steps.get(key);
        if (done?.status === 'succeeded') {
          outputs[index] = done.output;
          continue;
        }
        try {
          outputs[index] = await this.runSpec(
            row,
            node,
            node.node,
            key,
            steps,
            scope({ item: list[index], index }),
            signal,
            1,
          );
        } catch (error) {
          if (!signal.aborted) {
            const message = messageOf(error);
            await this.putStep(row, steps, {
              key,
              node,
              kind: node.node.kind,
              status: 'failed',
              attempts: 1,
              error: message,
            });
          }
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(node.concurrency, list.length) }, worker));
    return outputs;
  }

  /** Runs one node's work (a map item's too): renders its values, stores the step, calls its runner. */
  private async runSpec(
    row: RunRow,
    node: WorkflowNode,
    spec: InnerNodeSpec,
    key: string,
    steps: Map<string, StepRow>,
    scope: ExpressionScope,
    signal: AbortSignal,
    attempt: number,
  ): Promise<unknown> {
    const remembered = (steps.get(key)?.input ?? {}) as Record<string, unknown>;
    const isItem = key !== node.id;
    let input: Record<string, unknown> = { ...remembered };
    const context: NodeContext = {
      run: row,
      nodeId: node.id,
      stepKey: key,
      signal,
      remembered,
      remember: async (values) => {
        input = { ...input, ...values };
        await this.putStep(row, steps, { key, node, kind: spec.kind, status: 'running', attempts: attempt, input });
      },
    };
    const text = async (template: Parameters<typeof renderTemplate>[0]) => {
      const value = await renderTemplate(template, scope);
      return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
    };
    // A tool's arguments, a child workflow's inputs: a template that must render to a map ({} when it does not).
    const map = async (template: Parameters<typeof renderTemplate>[0]) => {
      const value = await renderTemplate(template, scope);
      return isPlainObject(value) ? value : {};
    };
    // The values a node's runner gets are stored with its step first (a resumed run reads them back).
    const record = async <Values extends Record<string, unknown>>(values: Values): Promise<Values> => {
      input = { ...input, ...values, ...(isItem ? { item: scope.item } : {}) };
      await this.putStep(row, steps, { key, node, kind: spec.kind, status: 'running', attempts: attempt, input });
      return values;
    };
    const { runners } = this.deps;
    let output: unknown;
    switch (spec.kind) {
      case 'agent':
        output = await runners.agent(
          await record({ session: await text(spec.session), task: await text(spec.task) }),
          context,
        );
        break;
      case 'tool':
        output = await runners.tool(await record({ tool: spec.tool, arguments: await map(spec.arguments) }), context);
        break;
      case 'send':
        output = await runners.send(
          await record({ session: await text(spec.session), text: await text(spec.text) }),
          context,
        );
        break;
      case 'wait': {
        let dueAt = typeof remembered.dueAt === 'number' ? remembered.dueAt : undefined;
        if (dueAt === undefined) {
          if (spec.duration !== undefined) {
            const value = await renderTemplate(spec.duration, scope);
            const ms = durationMs(value);
            if (ms === undefined) throw new Error(this.deps.t('workflow.problem.duration', { value: String(value) }));
            dueAt = this.now() + ms;
          } else {
            const value = await text(spec.until);
            const moment = Date.parse(value);
            if (Number.isNaN(moment)) throw new Error(this.deps.t('workflow.step.waitInvalid', { value }));
            dueAt = moment;
          }
          await record({ dueAt });
        }
        await pause(Math.max(0, dueAt - this.now()), signal);
        output = dueAt;
        break;
      }
      case 'condition':
        output = isTrue(await evaluateExpression(spec.if, scope));
        if (isItem) await record({});
        break;
      case 'workflow':
        output = await runners.workflow(
          await record({ workflow: spec.workflow, inputs: await map(spec.inputs) }),
          context,
        );
        break;
    }
    if (isItem)
      await this.putStep(row, steps, { key, node, kind: spec.kind, status: 'succeeded', attempts: attempt, output });
    return output;
  }
}

/** A node whose `when` was false. */
const SKIPPED = Symbol('skipped');

/** The engine was suspended (shutdown): the run stays running in the store. */
export class Suspended extends Error {}

export type { RunStatus };
