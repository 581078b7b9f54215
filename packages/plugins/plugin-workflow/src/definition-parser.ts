// Reads a workflow's YAML into a checked WorkflowDefinition, or the problems that stop it, each with its line:
// structure, node kinds, unique ids, `needs` forming a DAG, expressions that compile and read only declared inputs
// and nodes they need, known tools and workflows, durations, cron expressions and time zones.

import {
  type InnerNodeSpec,
  NODE_ID_PATTERN,
  type NodeSpec,
  type RetryPolicy,
  type Template,
  WORKFLOW_NODE_KINDS,
  type WorkflowDefinition,
  type WorkflowInput,
  type WorkflowInputType,
  type WorkflowNode,
  type WorkflowNodeKind,
  type WorkflowProblem,
} from '@aalis/api-workflow';
import { isTimeZone } from '@aalis/core';
import { isPlainObject } from '@aalis/schema-message';
import { Cron } from 'croner';
import { LineCounter, parseDocument } from 'yaml';
import { durationMs } from './durations.js';
import {
  checkExpression,
  checkTemplateText,
  type ExpressionProblem,
  inputsReadBy,
  nodesReadBy,
} from './expressions.js';
import type { WorkflowTextKey } from './workflow-texts.js';

type Path = (string | number)[];
export type Translate = (key: WorkflowTextKey, params?: Record<string, string | number>) => string;

export interface ParseContext {
  readonly t: Translate;
  /** Whether a tool of this name is registered now. */
  readonly toolExists: (name: string) => boolean;
  /** Whether a workflow of this name exists (a file, or the one being saved). */
  readonly workflowExists: (name: string) => boolean;
}

export type ParseResult =
  | { readonly ok: true; readonly definition: WorkflowDefinition }
  | { readonly ok: false; readonly problems: WorkflowProblem[] };

const TOP_KEYS = ['name', 'description', 'inputs', 'nodes', 'output', 'triggers'];
const COMMON_KEYS = ['id', 'kind', 'needs', 'when', 'timeout', 'retry'];
const KIND_KEYS: Record<WorkflowNodeKind, string[]> = {
  agent: ['session', 'task'],
  tool: ['tool', 'arguments'],
  send: ['session', 'text'],
  wait: ['duration', 'until'],
  condition: ['if'],
  map: ['over', 'concurrency', 'node'],
  workflow: ['workflow', 'inputs'],
};
const INPUT_TYPES: WorkflowInputType[] = ['string', 'number', 'boolean', 'object', 'array'];

export function parseWorkflow(name: string, text: string, context: ParseContext): ParseResult {
  const { t } = context;
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: WorkflowProblem[] = [];
  const at = (path: Path, message: string, offsetInValue = 0) => {
    // The value's own place; for a missing key, the closest enclosing value that exists.
    let node: unknown;
    for (let length = path.length; length >= 0 && !node; length -= 1) {
      node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
    }
    const range = (node as { range?: [number, number] } | undefined)?.range;
    // A quoted scalar's text starts one character after its range does.
    const quoted = (node as { type?: string } | undefined)?.type?.startsWith('QUOTE') ? 1 : 0;
    const position = range ? lineCounter.linePos(range[0] + quoted + offsetInValue) : { line: 1, col: 1 };
    problems.push({ path, line: position.line, column: position.col, message });
  };
  for (const error of document.errors) {
    const position = lineCounter.linePos(error.pos[0]);
    problems.push({
      path: [],
      line: position.line,
      column: position.col,
      message: t('workflow.problem.yaml', { reason: error.message.split('\n')[0]! }),
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  const root: unknown = document.toJS({ maxAliasCount: 50 });
  if (!isPlainObject(root)) {
    at([], t('workflow.problem.notMap'));
    return { ok: false, problems };
  }
  const unknownKeys = (value: Record<string, unknown>, allowed: string[], path: Path) => {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        at([...path, key], t('workflow.problem.unknownKey', { key, allowed: allowed.join(', ') }));
    }
  };
  unknownKeys(root, TOP_KEYS, []);
  const description = typeof root.description === 'string' ? root.description : undefined;
  if (root.description !== undefined && description === undefined) {
    at(['description'], t('workflow.problem.type', { key: 'description', expected: 'string' }));
  }

  // Inputs: `name: type` or `name: { type, required, default, description }`.
  const inputs: Record<string, WorkflowInput> = {};
  if (root.inputs !== undefined) {
    if (!isPlainObject(root.inputs)) at(['inputs'], t('workflow.problem.notMap'));
    else {
      for (const [key, spec] of Object.entries(root.inputs)) {
        const path = ['inputs', key];
        const declared = typeof spec === 'string' ? { type: spec } : spec;
        if (!isPlainObject(declared)) {
          at(path, t('workflow.problem.notMap'));
          continue;
        }
        unknownKeys(declared, ['type', 'required', 'default', 'description'], path);
        const type = (declared.type ?? 'string') as WorkflowInputType;
        if (!INPUT_TYPES.includes(type)) at([...path, 'type'], t('workflow.problem.inputType', { type: String(type) }));
        inputs[key] = {
          type,
          required: declared.required === undefined ? declared.default === undefined : declared.required === true,
          ...(declared.default !== undefined ? { default: declared.default } : {}),
          ...(typeof declared.description === 'string' ? { description: declared.description } : {}),
        };
      }
    }
  }

  // Nodes.
  const nodes: WorkflowNode[] = [];
  const seen = new Map<string, number>();
  if (!Array.isArray(root.nodes) || root.nodes.length === 0) at(['nodes'], t('workflow.problem.noNodes'));
  else {
    root.nodes.forEach((raw, index) => {
      const node = readNode(raw, ['nodes', index], true);
      if (!node) return;
      if (seen.has(node.id)) at(['nodes', index, 'id'], t('workflow.problem.duplicateId', { id: node.id }));
      seen.set(node.id, index);
      nodes.push(node);
    });
  }

  function checkText(value: Template | undefined, path: Path, needs: ReadonlySet<string> | undefined) {
    if (typeof value === 'string') {
      checkParsed(checkTemplateText(value), value, path, needs);
    } else if (Array.isArray(value)) {
      for (const [index, entry] of value.entries()) checkText(entry, [...path, index], needs);
    } else if (isPlainObject(value))
      for (const [key, entry] of Object.entries(value)) checkText(entry as Template, [...path, key], needs);
  }
  function checkBare(value: string, path: Path, needs: ReadonlySet<string> | undefined) {
    checkParsed(checkExpression(value), value, path, needs);
  }
  /** A template or bare expression: its syntax problem if any, then what it reads. */
  function checkParsed(
    problem: ExpressionProblem | undefined,
    value: string,
    path: Path,
    needs: ReadonlySet<string> | undefined,
  ) {
    if (problem)
      at(
        path,
        t('workflow.problem.expression', { offset: problem.offset + 1, reason: problem.message }),
        problem.offset,
      );
    checkReads(value, path, needs);
  }
  function checkReads(value: string, path: Path, needs: ReadonlySet<string> | undefined) {
    for (const input of inputsReadBy(value)) {
      if (!(input in inputs)) at(path, t('workflow.problem.inputUndeclared', { input }));
    }
    if (!needs) return;
    for (const node of nodesReadBy(value)) {
      if (!needs.has(node)) at(path, t('workflow.problem.nodeNotNeeded', { node }));
    }
  }

  function readNode(raw: unknown, path: Path, withCommon: boolean): WorkflowNode | undefined {
    if (!isPlainObject(raw)) {
      at(path, t('workflow.problem.notMap'));
      return undefined;
    }
    const kind = raw.kind as WorkflowNodeKind;
    if (typeof raw.kind !== 'string' || !WORKFLOW_NODE_KINDS.includes(kind)) {
      at(
        [...path, 'kind'],
        raw.kind === undefined
          ? t('workflow.problem.missing', { key: 'kind' })
          : t('workflow.problem.kind', { kind: String(raw.kind), kinds: WORKFLOW_NODE_KINDS.join(', ') }),
      );
      return undefined;
    }
    unknownKeys(raw, withCommon ? [...COMMON_KEYS, ...KIND_KEYS[kind]] : ['kind', ...KIND_KEYS[kind]], path);
    let id = '';
    if (withCommon) {
      if (typeof raw.id !== 'string' || !NODE_ID_PATTERN.test(raw.id)) {
        at(
          [...path, 'id'],
          raw.id === undefined
            ? t('workflow.problem.missing', { key: 'id' })
            : t('workflow.problem.nodeId', { id: String(raw.id) }),
        );
      } else id = raw.id;
    }
    const needs = raw.needs === undefined ? [] : typeof raw.needs === 'string' ? [raw.needs] : raw.needs;
    if (!Array.isArray(needs) || needs.some((need) => typeof need !== 'string')) {
      at([...path, 'needs'], t('workflow.problem.type', { key: 'needs', expected: 'a list of node ids' }));
    }
    const timeoutMs = raw.timeout === undefined ? 0 : durationMs(raw.timeout);
    if (timeoutMs === undefined)
      at([...path, 'timeout'], t('workflow.problem.duration', { value: String(raw.timeout) }));
    const retry = readRetry(raw.retry, [...path, 'retry']);
    const spec = readSpec(kind, raw, path);
    if (!spec) return undefined;
    if (raw.when !== undefined && typeof raw.when !== 'string') {
      at([...path, 'when'], t('workflow.problem.type', { key: 'when', expected: 'an expression' }));
    }
    return {
      id,
      needs: Array.isArray(needs) ? (needs as string[]) : [],
      ...(typeof raw.when === 'string' ? { when: raw.when } : {}),
      timeoutMs: timeoutMs ?? 0,
      retry,
      ...spec,
    };
  }

  function readRetry(raw: unknown, path: Path): RetryPolicy {
    if (raw === undefined) return { attempts: 1, delayMs: 1000 };
    if (typeof raw === 'number') {
      if (!Number.isInteger(raw) || raw < 0) at(path, t('workflow.problem.positive', { key: 'retry' }));
      return { attempts: Math.max(1, Math.floor(raw) + 1), delayMs: 1000 };
    }
    if (!isPlainObject(raw)) {
      at(path, t('workflow.problem.notMap'));
      return { attempts: 1, delayMs: 1000 };
    }
    unknownKeys(raw, ['attempts', 'delay'], path);
    const attempts = raw.attempts ?? 1;
    if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 1 || attempts > 20) {
      at([...path, 'attempts'], t('workflow.problem.positive', { key: 'attempts' }));
    }
    const delayMs = raw.delay === undefined ? 1000 : durationMs(raw.delay);
    if (delayMs === undefined) at([...path, 'delay'], t('workflow.problem.duration', { value: String(raw.delay) }));
    return {
      attempts: typeof attempts === 'number' ? Math.min(20, Math.max(1, Math.floor(attempts))) : 1,
      delayMs: delayMs ?? 1000,
    };
  }

  function required(raw: Record<string, unknown>, key: string, path: Path): boolean {
    if (raw[key] === undefined) {
      at(path, t('workflow.problem.missing', { key }));
      return false;
    }
    return true;
  }

  function readSpec(kind: WorkflowNodeKind, raw: Record<string, unknown>, path: Path): NodeSpec | undefined {
    switch (kind) {
      case 'agent':
        if (!required(raw, 'session', path) || !required(raw, 'task', path)) return undefined;
        return { kind, session: raw.session as Template, task: raw.task as Template };
      case 'tool':
        if (!required(raw, 'tool', path)) return undefined;
        if (typeof raw.tool !== 'string') {
          at([...path, 'tool'], t('workflow.problem.type', { key: 'tool', expected: 'a tool name' }));
          return undefined;
        }
        if (!context.toolExists(raw.tool)) at([...path, 'tool'], t('workflow.problem.toolUnknown', { tool: raw.tool }));
        return { kind, tool: raw.tool, arguments: (raw.arguments ?? {}) as Template };
      case 'send':
        if (!required(raw, 'session', path) || !required(raw, 'text', path)) return undefined;
        return { kind, session: raw.session as Template, text: raw.text as Template };
      case 'wait': {
        const hasDuration = raw.duration !== undefined;
        if (hasDuration === (raw.until !== undefined)) {
          at(path, t('workflow.problem.waitOne'));
          return undefined;
        }
        if (
          hasDuration &&
          !(typeof raw.duration === 'string' && raw.duration.includes('{{')) &&
          durationMs(raw.duration) === undefined
        ) {
          at([...path, 'duration'], t('workflow.problem.duration', { value: String(raw.duration) }));
        }
        return hasDuration ? { kind, duration: raw.duration as Template } : { kind, until: raw.until as Template };
      }
      case 'condition':
        if (!required(raw, 'if', path)) return undefined;
        if (typeof raw.if !== 'string') {
          at([...path, 'if'], t('workflow.problem.type', { key: 'if', expected: 'an expression' }));
          return undefined;
        }
        return { kind, if: raw.if };
      case 'map': {
        if (!required(raw, 'over', path) || !required(raw, 'node', path)) return undefined;
        const concurrency = raw.concurrency ?? 4;
        if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
          at([...path, 'concurrency'], t('workflow.problem.positive', { key: 'concurrency' }));
        }
        if (isPlainObject(raw.node) && raw.node.kind === 'map') {
          at([...path, 'node', 'kind'], t('workflow.problem.mapInner'));
          return undefined;
        }
        const inner = readNode(raw.node, [...path, 'node'], false);
        if (!inner) return undefined;
        const { id: _id, needs: _needs, timeoutMs: _timeout, retry: _retry, when: _when, ...innerSpec } = inner;
        return {
          kind,
          over: raw.over as Template,
          concurrency: typeof concurrency === 'number' ? Math.min(64, Math.max(1, Math.floor(concurrency))) : 4,
          node: innerSpec as InnerNodeSpec,
        };
      }
      case 'workflow':
        if (!required(raw, 'workflow', path)) return undefined;
        if (typeof raw.workflow !== 'string') {
          at([...path, 'workflow'], t('workflow.problem.type', { key: 'workflow', expected: 'a workflow name' }));
          return undefined;
        }
        if (raw.workflow !== name && !context.workflowExists(raw.workflow)) {
          at([...path, 'workflow'], t('workflow.problem.workflowUnknown', { workflow: raw.workflow }));
        }
        return { kind, workflow: raw.workflow, inputs: (raw.inputs ?? {}) as Template };
    }
  }

  // The graph: needs that exist, no cycle; then expressions, which may read only what a node needs.
  const indexOf = new Map(nodes.map((node, index) => [node.id, index] as const));
  // A node that has a problem of its own is reported once, not again by every node that needs it.
  const writtenIds = new Set(
    (Array.isArray(root.nodes) ? root.nodes : []).map((raw) => (isPlainObject(raw) ? raw.id : undefined)),
  );
  nodes.forEach((node, position) => {
    const index = seen.get(node.id) ?? position;
    node.needs.forEach((need, needIndex) => {
      if (!indexOf.has(need) && !writtenIds.has(need))
        at(['nodes', index, 'needs', needIndex], t('workflow.problem.needsUnknown', { id: node.id, need }));
    });
  });
  const cycle = findCycle(nodes);
  if (cycle)
    at(['nodes', seen.get(cycle[0]!) ?? 0, 'needs'], t('workflow.problem.cycle', { cycle: cycle.join(' → ') }));
  const ancestors = cycle ? undefined : ancestorsOf(nodes);
  nodes.forEach((node) => {
    const index = seen.get(node.id) ?? 0;
    const path: Path = ['nodes', index];
    const needs = ancestors?.get(node.id);
    if (node.when !== undefined) checkBare(node.when, [...path, 'when'], needs);
    checkSpec(node, path, needs);
  });
  function checkSpec(spec: NodeSpec, path: Path, needs: ReadonlySet<string> | undefined) {
    switch (spec.kind) {
      case 'agent':
        checkText(spec.session, [...path, 'session'], needs);
        checkText(spec.task, [...path, 'task'], needs);
        break;
      case 'tool':
        checkText(spec.arguments, [...path, 'arguments'], needs);
        break;
      case 'send':
        checkText(spec.session, [...path, 'session'], needs);
        checkText(spec.text, [...path, 'text'], needs);
        break;
      case 'wait':
        checkText(spec.duration ?? spec.until, [...path, spec.duration !== undefined ? 'duration' : 'until'], needs);
        break;
      case 'condition':
        checkBare(spec.if, [...path, 'if'], needs);
        break;
      case 'map':
        checkText(spec.over, [...path, 'over'], needs);
        checkSpec(spec.node, [...path, 'node'], needs);
        break;
      case 'workflow':
        checkText(spec.inputs, [...path, 'inputs'], needs);
        break;
    }
  }
  if (root.output !== undefined) checkText(root.output as Template, ['output'], new Set(nodes.map((node) => node.id)));

  // Triggers.
  let schedule: string[] = [];
  let timeZone: string | undefined;
  let webhook = false;
  if (root.triggers !== undefined) {
    if (!isPlainObject(root.triggers)) at(['triggers'], t('workflow.problem.notMap'));
    else {
      unknownKeys(root.triggers, ['schedule', 'timeZone', 'webhook'], ['triggers']);
      const { schedule: rawSchedule, timeZone: rawZone, webhook: rawWebhook } = root.triggers;
      if (typeof rawZone === 'string') {
        if (isTimeZone(rawZone)) timeZone = rawZone;
        else at(['triggers', 'timeZone'], t('workflow.problem.timeZone', { zone: rawZone }));
      }
      const crons = rawSchedule === undefined ? [] : typeof rawSchedule === 'string' ? [rawSchedule] : rawSchedule;
      if (!Array.isArray(crons))
        at(
          ['triggers', 'schedule'],
          t('workflow.problem.type', { key: 'schedule', expected: 'a list of cron expressions' }),
        );
      else {
        crons.forEach((cron, index) => {
          const path: Path =
            typeof rawSchedule === 'string' ? ['triggers', 'schedule'] : ['triggers', 'schedule', index];
          try {
            new Cron(String(cron), { paused: true, ...(timeZone ? { timezone: timeZone } : {}) });
            schedule.push(String(cron));
          } catch (error) {
            at(path, t('workflow.problem.cron', { cron: String(cron), reason: (error as Error).message }));
          }
        });
      }
      if (rawWebhook !== undefined && typeof rawWebhook !== 'boolean') {
        at(['triggers', 'webhook'], t('workflow.problem.type', { key: 'webhook', expected: 'true or false' }));
      }
      webhook = rawWebhook === true;
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ok: false, problems };
  }
  schedule = [...new Set(schedule)];
  return {
    ok: true,
    definition: {
      name,
      ...(description !== undefined ? { description } : {}),
      inputs,
      nodes,
      ...(root.output !== undefined ? { output: root.output as Template } : {}),
      triggers: { schedule, ...(timeZone ? { timeZone } : {}), webhook },
    },
  };
}

/** A cycle among the nodes' needs (the ids along it, first repeated at the end), or undefined. */
export function findCycle(nodes: readonly WorkflowNode[]): string[] | undefined {
  const needsOf = new Map(nodes.map((node) => [node.id, node.needs] as const));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const need of needsOf.get(id) ?? []) {
      if (!needsOf.has(need)) continue;
      const cycle = visit(need);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const node of nodes) {
    const cycle = visit(node.id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Each node's transitive needs. */
function ancestorsOf(nodes: readonly WorkflowNode[]): Map<string, Set<string>> {
  const needsOf = new Map(nodes.map((node) => [node.id, node.needs] as const));
  const result = new Map<string, Set<string>>();
  const of = (id: string): Set<string> => {
    const known = result.get(id);
    if (known) return known;
    const all = new Set<string>();
    result.set(id, all);
    for (const need of needsOf.get(id) ?? []) {
      if (!needsOf.has(need)) continue;
      all.add(need);
      for (const further of of(need)) all.add(further);
    }
    return all;
  };
  for (const node of nodes) of(node.id);
  return result;
}
