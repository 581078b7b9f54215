import { textRef, translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { parseWorkflow, type Translate } from './definition-parser.js';
import './workflow-texts.js';

const t: Translate = (key, params) => translate(textRef(key, params), 'en');
const context = {
  t,
  toolExists: (name: string) => name === 'echo',
  workflowExists: (name: string) => name === 'child',
};

const valid = `description: Morning report
inputs:
  city: string
  days: { type: number, default: 3 }
nodes:
  - id: weather
    kind: tool
    tool: echo
    arguments: { text: "{{ inputs.city }}" }
  - id: check
    kind: condition
    needs: [weather]
    if: nodes.weather.output != ''
  - id: tell
    kind: agent
    needs: [check]
    when: nodes.check.output
    session: webui:owner:reports
    task: "Summarise {{ nodes.weather.output }} for {{ inputs.days }} days"
    timeout: 2m
    retry: { attempts: 2, delay: 1s }
triggers:
  schedule: "0 9 * * *"
  timeZone: Asia/Shanghai
`;

describe('parseWorkflow', () => {
  it('reads a valid workflow into its definition', () => {
    const result = parseWorkflow('report', valid, context);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.inputs).toEqual({
      city: { type: 'string', required: true },
      days: { type: 'number', required: false, default: 3 },
    });
    expect(result.definition.nodes.map((node) => [node.id, node.kind, node.needs])).toEqual([
      ['weather', 'tool', []],
      ['check', 'condition', ['weather']],
      ['tell', 'agent', ['check']],
    ]);
    expect(result.definition.nodes[2]).toMatchObject({ timeoutMs: 120_000, retry: { attempts: 2, delayMs: 1000 } });
    expect(result.definition.triggers).toEqual({ schedule: ['0 9 * * *'], timeZone: 'Asia/Shanghai', webhook: false });
  });

  it('rejects a cycle, pointing at the line of the needs that closes it', () => {
    const result = parseWorkflow(
      'loop',
      `nodes:
  - id: a
    kind: wait
    duration: 1s
    needs: [b]
  - id: b
    kind: wait
    duration: 1s
    needs: [a]
`,
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ line: 5, message: expect.stringContaining('a → b → a') });
  });

  it('rejects an unknown node kind, an unknown tool, a wrong expression and an undeclared input, each at its line', () => {
    const result = parseWorkflow(
      'bad',
      `inputs:
  city: string
nodes:
  - id: a
    kind: teleport
  - id: b
    kind: tool
    tool: nope
  - id: c
    kind: send
    session: s1
    text: "Hello {{ inputs.city + }}"
  - id: d
    kind: send
    session: s1
    text: "{{ inputs.country }}"
`,
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => [problem.line, problem.message.split(' ').slice(0, 3).join(' ')])).toEqual([
      [5, 'Unknown node kind'],
      [8, 'There is no'],
      [12, 'The expression is'],
      [16, 'The input "country"'],
    ]);
    expect(result.problems[2]!.column).toBeGreaterThan(10);
  });

  it('rejects reading a node that is not needed, a missing key, a bad duration and a bad cron', () => {
    const result = parseWorkflow(
      'bad',
      `nodes:
  - id: a
    kind: agent
    session: s
  - id: b
    kind: send
    session: s
    text: "{{ nodes.c.output }}"
  - id: c
    kind: wait
    duration: soon
triggers:
  schedule: ["61 * * * *"]
`,
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.line)).toEqual([2, 8, 11, 13]);
    expect(result.problems[0]!.message).toBe('"task" is missing.');
  });

  it('reports malformed YAML with its line', () => {
    const result = parseWorkflow('bad', 'nodes:\n  - id: a\n   kind: wait\n', context);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]!.line).toBeGreaterThanOrEqual(2);
    expect(result.problems[0]!.message).toMatch(/^The YAML is malformed/);
  });
});
