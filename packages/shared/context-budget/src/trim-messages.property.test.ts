import { groupToolCalls, isControlMessage, type Message, validateProviderSequence } from '@aalis/schema-message';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateMessageTokens, type MessageTokenEstimator } from './estimate-tokens.js';
import { outputAllowance } from './output-allowance.js';
import { charEstimator } from './test-fixtures.case.js';
import { type TrimResult, trimMessages } from './trim-messages.js';

// Random histories with tool groups, checked against the rules every trim must keep.

interface GroupSpec {
  results: number[];
  args: number;
  reasoning: number;
}

type UnitSpec =
  | { kind: 'user' | 'system' | 'marker'; size: number }
  | { kind: 'assistant'; size: number; reasoning: number }
  | ({ kind: 'group' } & GroupSpec);

const size = (max: number) => fc.integer({ min: 0, max });
const groupSpec = (maxResult: number) =>
  fc.record({
    results: fc.array(size(maxResult), { minLength: 1, maxLength: 3 }),
    args: size(120),
    reasoning: fc.oneof(fc.constant(0), size(1000)),
  });
const unitSpec: fc.Arbitrary<UnitSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('user' as const), size: size(600) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('assistant' as const), size: size(900), reasoning: size(600) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('system' as const, 'marker' as const), size: size(300) }) },
  { weight: 2, arbitrary: groupSpec(2500).map((group) => ({ kind: 'group' as const, ...group })) },
);

/** Builds messages with unique, recognisable contents. */
class Builder {
  private next = 0;
  private fill(length: number): string {
    const id = `#${this.next++}:`;
    const alphabet = 'abcdefghij 中文内容 0123456789\n';
    let body = '';
    for (let index = 0; body.length < length; index++) body += alphabet[(index * 7 + this.next) % alphabet.length];
    return (id + body).slice(0, Math.max(id.length, length));
  }
  message(role: Message['role'], length: number, extra: Partial<Message> = {}): Message {
    return { role, content: this.fill(length), ...extra };
  }
  group({ results, args, reasoning }: GroupSpec): Message[] {
    const ids = results.map(() => `call_${this.next++}`);
    const head: Message = {
      role: 'assistant',
      content: '',
      toolCalls: ids.map((id, index) => ({
        id,
        type: 'function',
        function: { name: `tool_${index}`, arguments: JSON.stringify({ q: this.fill(args) }) },
      })),
    };
    if (reasoning > 0) head.reasoningContent = this.fill(reasoning);
    return [head, ...results.map((length, index) => this.message('tool', length, { toolCallId: ids[index]! }))];
  }
  unit(spec: UnitSpec): Message[] {
    switch (spec.kind) {
      case 'group':
        return this.group(spec);
      case 'marker':
        return [this.message('system', spec.size, { kind: 'event-marker' })];
      case 'assistant':
        return [
          this.message(
            'assistant',
            spec.size,
            spec.reasoning > 0 ? { reasoningContent: this.fill(spec.reasoning) } : {},
          ),
        ];
      default:
        return [this.message(spec.kind, spec.size)];
    }
  }
}

const scenario = fc.record({
  budget: fc.integer({ min: 1024, max: 9000 }),
  maxOutput: fc.integer({ min: 0, max: 2000 }),
  memoryTokenBudget: fc.integer({ min: 0, max: 3000 }),
  systemPrompt: size(800),
  headBlocks: fc.array(size(1500), { maxLength: 3 }),
  history: fc.array(unitSpec, { maxLength: 30 }),
  volatile: fc.option(size(600)),
  instruction: fc.option(size(1500)),
  /** The instruction block is an idle prompt: protected from step 4 only, not an input. */
  idle: fc.boolean(),
  /** Tool definitions, counted with the head. */
  fixedTokens: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4000 })),
  inputs: fc.array(size(1200), { maxLength: 2 }),
  groups: fc.array(groupSpec(4000), { maxLength: 3 }),
  joinedAfterGroups: fc.option(size(400)),
  trailing: fc.option(fc.constantFrom('assistant' as const, 'user' as const)),
  realEstimator: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function buildScenario(spec: Scenario) {
  const build = new Builder();
  const messages: Message[] = [build.message('system', spec.systemPrompt)];
  for (const length of spec.headBlocks) messages.push(build.message('system', length));
  const headEnd = messages.length;
  for (const unit of spec.history) messages.push(...build.unit(unit));
  const historyEnd = messages.length;
  const inputs: number[] = [];
  const instructions: number[] = [];
  if (spec.volatile !== null) messages.push(build.message('system', spec.volatile));
  if (spec.instruction !== null) {
    instructions.push(messages.length);
    if (!spec.idle) inputs.push(messages.length);
    messages.push(build.message('system', spec.instruction));
  }
  for (const length of spec.inputs) {
    inputs.push(messages.length);
    messages.push(build.message('user', length));
  }
  for (const group of spec.groups) messages.push(...build.group(group));
  if (spec.joinedAfterGroups !== null) {
    inputs.push(messages.length);
    messages.push(build.message('user', spec.joinedAfterGroups));
  }
  if (spec.trailing === 'assistant')
    messages.push(build.message('assistant', 300, { reasoningContent: 'r'.repeat(500) }));
  if (spec.trailing === 'user') messages.push(build.message('system', 200)); // format-retry feedback
  return { messages, headEnd, historyEnd, inputs, instructions };
}

const estimatorOf = (real: boolean): MessageTokenEstimator => (real ? estimateMessageTokens : charEstimator);

describe('trimMessages properties', () => {
  it('property: output is a valid provider sequence, protected messages are present and unchanged, the input is not mutated, control messages are not sent', () => {
    fc.assert(
      fc.property(scenario, (spec) => {
        const { messages, headEnd, historyEnd, inputs, instructions } = buildScenario(spec);
        const copy = structuredClone(messages);
        const outcome = trimMessages({
          messages,
          segments: { headEnd, historyEnd },
          inputs,
          instructions,
          fixedTokens: spec.fixedTokens,
          contextWindow: spec.budget + spec.maxOutput + 512,
          maxOutputTokens: spec.maxOutput,
          memoryTokenBudget: spec.memoryTokenBudget,
          estimator: estimatorOf(spec.realEstimator),
        });
        expect(validateProviderSequence(outcome.messages)).toEqual([]);
        expect(outcome.messages[0]).toBe(messages[0]);
        const protectedInOutput = outcome.messages.filter((message) =>
          inputs.some((index) => messages[index] === message),
        );
        expect(protectedInOutput).toEqual(inputs.map((index) => messages[index]));
        // Instruction blocks stay whole unless one is the last message, which only step 5 may shorten.
        for (const index of instructions) {
          if (index === messages.length - 1) continue;
          expect(outcome.messages).toContain(messages[index]);
        }
        expect(messages).toEqual(copy);
        expect(outcome.messages.some(isControlMessage)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('property: the result fits the budget unless only step-5 material is left (all history dropped, injected blocks within their quota)', () => {
    fc.assert(
      fc.property(scenario, (spec) => {
        const { messages, headEnd, historyEnd, inputs, instructions } = buildScenario(spec);
        const estimator = estimatorOf(spec.realEstimator);
        const outcome = trimMessages({
          messages,
          segments: { headEnd, historyEnd },
          inputs,
          instructions,
          fixedTokens: spec.fixedTokens,
          contextWindow: spec.budget + spec.maxOutput + 512,
          maxOutputTokens: spec.maxOutput,
          memoryTokenBudget: spec.memoryTokenBudget,
          estimator,
        });
        const total = outcome.messages.reduce((sum, message) => sum + estimator(message), spec.fixedTokens);
        expect(outcome.tokens).toBe(total);
        expect(outcome.budget).toBe(spec.budget);
        if (total <= outcome.budget) return;
        expect(outcome.overBudget).toBe(true);
        expect(outcome.steps.filter((step) => step !== 1)).toEqual([2, 3, 4, 5]);
        const historyLeft = outcome.messages.filter(
          (message) => messages.indexOf(message) >= headEnd && messages.indexOf(message) < historyEnd,
        );
        const turnIsEmpty = historyEnd === messages.length;
        expect(historyLeft.length === 0 || turnIsEmpty).toBe(true);
        const sent = outcome.messages.filter((message) => !message.content.startsWith('[系统提示]'));
        const injected = sent
          .slice(1, -1)
          .filter(
            (message) =>
              message.role === 'system' &&
              !inputs.some((index) => messages[index] === message) &&
              !instructions.some((index) => messages[index] === message),
          );
        const injectedTokens = injected.reduce((sum, message) => sum + estimator(message), 0);
        expect(injectedTokens).toBeLessThanOrEqual(spec.memoryTokenBudget);
      }),
      { numRuns: 400 },
    );
  });

  it('property: step 1 drops ⌈(history − available) ÷ unit⌉ whole units, cut at the first message reaching them, never inside a tool group', () => {
    fc.assert(
      fc.property(scenario, (spec) => {
        const { messages, headEnd, historyEnd, inputs } = buildScenario(spec);
        const outcome = trimMessages({
          messages,
          segments: { headEnd, historyEnd },
          inputs,
          fixedTokens: spec.fixedTokens,
          contextWindow: spec.budget + spec.maxOutput + 512,
          maxOutputTokens: spec.maxOutput,
          estimator: charEstimator,
        });
        if (outcome.steps[0] !== 1 || outcome.steps.includes(3)) return;
        const history = groupToolCalls(messages.slice(headEnd, historyEnd).filter((m) => !isControlMessage(m)));
        // Tool definitions (fixedTokens) belong to the head.
        const headTokens = messages.slice(0, headEnd).reduce((sum, m) => sum + charEstimator(m), spec.fixedTokens);
        const historyTokens = history.messages.reduce((sum, m) => sum + charEstimator(m), 0);
        const available = outcome.budget - headTokens - outcome.unit;
        const k = Math.ceil((historyTokens - available) / outcome.unit);
        expect(outcome.droppedUnits).toBe(k);
        const dropped = history.messages.slice(0, outcome.droppedHistory);
        const droppedTokens = dropped.reduce((sum, m) => sum + charEstimator(m), 0);
        if (outcome.droppedHistory < history.messages.length)
          expect(droppedTokens).toBeGreaterThanOrEqual(k * outcome.unit);
        expect(
          history.units.some((unit) => unit.start < outcome.droppedHistory && unit.end > outcome.droppedHistory),
        ).toBe(false);
        const lastUnit = history.units.find((unit) => unit.end === outcome.droppedHistory);
        const beforeLastUnit = history.messages
          .slice(0, lastUnit?.start ?? 0)
          .reduce((sum, m) => sum + charEstimator(m), 0);
        expect(beforeLastUnit).toBeLessThan(k * outcome.unit);
      }),
      { numRuns: 300 },
    );
  });

  it('property: tool definitions never make the history kept larger, and a request fits the window: messages + tool definitions + max output ≤ context window', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 4000 }), (spec, extraTools) => {
        const { messages, headEnd, historyEnd, inputs, instructions } = buildScenario(spec);
        const estimator = estimatorOf(spec.realEstimator);
        const contextWindow = spec.budget + spec.maxOutput + 512;
        const run = (fixedTokens: number) =>
          trimMessages({
            messages,
            segments: { headEnd, historyEnd },
            inputs,
            instructions,
            fixedTokens,
            contextWindow,
            maxOutputTokens: spec.maxOutput,
            memoryTokenBudget: spec.memoryTokenBudget,
            estimator,
          });
        const fewer = run(spec.fixedTokens);
        const more = run(spec.fixedTokens + extraTools);
        expect(more.droppedHistory).toBeGreaterThanOrEqual(fewer.droppedHistory);
        for (const outcome of [fewer, more]) {
          const allowance = outputAllowance({
            contextWindow,
            maxOutputTokens: spec.maxOutput,
            promptTokens: outcome.tokens,
          });
          // Within budget the model's whole max output fits; otherwise it is lowered to the room left, or refused.
          if (!outcome.overBudget) expect(allowance.maxOutputTokens).toBe(spec.maxOutput);
          if (allowance.fits) expect(outcome.tokens + allowance.maxOutputTokens).toBeLessThanOrEqual(contextWindow);
          else expect(outcome.overBudget).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: between consecutive requests (tool loop and next turn) the new trimmed output starts with the previous one, byte for byte, unless a new unit was dropped', () => {
    const exchange = fc.record({
      input: size(500),
      groups: fc.array(groupSpec(1200), { maxLength: 2 }),
      reply: size(700),
      reasoning: fc.oneof(fc.constant(0), size(400)),
    });
    const conversation = fc.record({
      budget: fc.integer({ min: 1500, max: 8000 }),
      systemPrompt: size(600),
      headBlocks: fc.array(size(500), { maxLength: 2 }),
      exchanges: fc.array(exchange, { minLength: 2, maxLength: 25 }),
      realEstimator: fc.boolean(),
    });
    let comparable = 0;
    let cutMoved = 0;
    fc.assert(
      fc.property(conversation, (spec) => {
        const build = new Builder();
        const head = [
          build.message('system', spec.systemPrompt),
          ...spec.headBlocks.map((n) => build.message('system', n)),
        ];
        const turns = spec.exchanges.map((turn) => ({
          input: build.message('user', turn.input),
          groups: turn.groups.map((group) => build.group(group)),
          reply: build.message(
            'assistant',
            turn.reply,
            turn.reasoning > 0 ? { reasoningContent: 'r'.repeat(turn.reasoning) } : {},
          ),
        }));
        const history: Message[] = [];
        let previous: TrimResult | undefined;
        let previousHistoryLength = 0;
        for (const turn of turns) {
          for (let calls = 0; calls <= turn.groups.length; calls++) {
            const messages = [...head, ...history, turn.input, ...turn.groups.slice(0, calls).flat()];
            const outcome = trimMessages({
              messages,
              segments: { headEnd: head.length, historyEnd: head.length + history.length },
              contextWindow: spec.budget + 512,
              maxOutputTokens: 0,
              estimator: estimatorOf(spec.realEstimator),
            });
            if (previous) {
              const plainStep1 = (result: TrimResult) => result.steps.every((step) => step === 1);
              // A history shorter than k units is dropped whole (丢完); the next turn's cut then lands in new messages.
              const droppedAll = previous.droppedHistory > 0 && previous.droppedHistory === previousHistoryLength;
              const newUnitDropped = outcome.droppedUnits !== previous.droppedUnits || droppedAll;
              if (newUnitDropped) cutMoved++;
              if (plainStep1(previous) && plainStep1(outcome) && !newUnitDropped) {
                comparable++;
                const before = previous.messages.map((message) => JSON.stringify(message));
                const after = outcome.messages.slice(0, before.length).map((message) => JSON.stringify(message));
                expect(after).toEqual(before);
              }
            }
            previous = outcome;
            previousHistoryLength = history.length;
          }
          history.push(turn.input, ...turn.groups.flat(), turn.reply);
        }
      }),
      { numRuns: 200 },
    );
    expect(comparable).toBeGreaterThan(500); // the prefix rule was really exercised …
    expect(cutMoved).toBeGreaterThan(50); // … and so were drops
  });
});
