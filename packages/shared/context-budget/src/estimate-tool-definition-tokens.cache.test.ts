import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from './estimate-tokens.js';
import {
  estimateToolDefinitionTokens,
  renderToolDefinition,
  TOOL_DEFINITIONS_OVERHEAD_TOKENS,
  type ToolDefinition,
} from './estimate-tool-definition-tokens.js';

// The estimate is cached per definition object and per parameters object (a registry's fresh copies of a tool share
// its parameters). Whatever sequence of requests comes — the same tools again, fresh copies, copies renamed or
// re-described over the same parameters, new parameters — each request's figure must equal the from-scratch one.

const WRAPPER = estimateTextTokens('namespace functions {\n\n} // namespace functions');
const fromScratch = (tools: readonly ToolDefinition[]) =>
  tools.length === 0
    ? 0
    : TOOL_DEFINITIONS_OVERHEAD_TOKENS +
      WRAPPER +
      tools.reduce((sum, tool) => sum + estimateTextTokens(renderToolDefinition(tool)), 0);

const word = fc.constantFrom('calc', 'look up', '查询天气', 'a rather long description of what the tool does', '');
const parametersOf = (names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string', description: `the ${name}` }])),
  required: names.slice(0, 1),
});

type Step =
  | { kind: 'same' }
  | { kind: 'copies' }
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'describe'; at: number; description: string | undefined }
  | { kind: 'newParameters'; at: number; names: string[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'same' as const }),
  fc.constant({ kind: 'copies' as const }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(5), name: fc.constantFrom('a', 'b', 'calculator') }),
  fc.record({
    kind: fc.constant('describe' as const),
    at: fc.nat(5),
    description: fc.option(word, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('newParameters' as const),
    at: fc.nat(5),
    names: fc.array(fc.constantFrom('q', 'city', 'expression'), { maxLength: 3 }),
  }),
);

describe('estimateToolDefinitionTokens cache', () => {
  it('gives the from-scratch figure for every request: same objects, fresh copies, renamed, re-described', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ name: fc.constantFrom('a', 'b', 'c'), description: fc.option(word, { nil: undefined }) }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.array(step, { maxLength: 30 }),
        (initial, steps) => {
          // Every third tool takes no parameters (cached per definition object).
          const registered: ToolDefinition[] = initial.map((tool, index) =>
            index % 3 === 2
              ? { ...tool }
              : { ...tool, parameters: parametersOf(index % 2 ? ['q'] : ['city', 'expression']) },
          );
          let request: ToolDefinition[] = registered.map((tool) => ({ ...tool }));
          expect(estimateToolDefinitionTokens(request)).toBe(fromScratch(request));
          for (const change of steps) {
            const at =
              request.length === 0
                ? 0
                : change.kind === 'same' || change.kind === 'copies'
                  ? 0
                  : change.at % request.length;
            if (change.kind === 'copies') request = request.map((tool) => ({ ...tool }));
            if (change.kind === 'rename') request[at] = { ...request[at]!, name: change.name };
            if (change.kind === 'describe') request[at] = { ...request[at]!, description: change.description };
            if (change.kind === 'newParameters')
              request[at] = { ...request[at]!, parameters: parametersOf(change.names) };
            expect(estimateToolDefinitionTokens(request)).toBe(fromScratch(request));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a copy with another description over the same parameters is not given the first copy’s figure', () => {
    const parameters = parametersOf(['q']);
    const short = { name: 'lookup', description: 'x', parameters };
    const long = {
      name: 'lookup',
      description: 'a much longer description of the lookup tool and its uses',
      parameters,
    };
    expect(estimateToolDefinitionTokens([short])).toBe(fromScratch([short]));
    expect(estimateToolDefinitionTokens([long])).toBe(fromScratch([long]));
    expect(estimateToolDefinitionTokens([{ ...short }])).toBe(fromScratch([short]));
    expect(fromScratch([long])).toBeGreaterThan(fromScratch([short]));
  });
});
