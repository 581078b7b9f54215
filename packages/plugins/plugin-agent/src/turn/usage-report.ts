// Builds token:usage events (api-agent.zh.md 「用量」) and the throttled [token-usage:TAG] log line
// (plugin-agent.zh.md 「Token 预算追踪与日志」).
import {
  type PromptCategory,
  type TokenBreakdown,
  type TokenUsageEvent,
  type TokenUsagePart,
  type UsageTag,
  usageTag,
} from '@aalis/api-agent';
import {
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolDefinitionTokens,
  type ToolDefinition,
} from '@aalis/context-budget';
import { textRef } from '@aalis/core';
import { isControlMessage, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { INJECTOR, injectorKeyOf } from './engine-messages.js';

type NumericBucket = Exclude<keyof TokenBreakdown, 'injectors'>;

const CATEGORY_BUCKET: Record<Exclude<PromptCategory, 'other'>, NumericBucket> = {
  persona: 'persona',
  memorySummary: 'memorySummary',
  memoryVector: 'memoryVector',
  skills: 'skills',
  platform: 'platform',
  subtask: 'subtask',
};

export interface BreakdownInput {
  /** The list actually sent (after trimming). */
  messages: readonly Message[];
  /** Their estimates as the trim counted them (TrimResult.messageTokens), so none is estimated twice. */
  messageTokens?: readonly number[];
  tools: readonly ToolDefinition[];
  /** Text of the persona prompt inside the first system message (counted as `persona`). */
  personaPrompt: string | undefined;
  /** Category of each injected block, by injector key. */
  categories: ReadonlyMap<string, PromptCategory>;
  /**
   * The agent's plugin instance id: its own blocks (the main system prompt's non-persona part included) are keyed
   * `<instance id>/<local id>` in `injectors`, like every contribution.
   */
  instanceId: string;
  maxTokens: number;
}

export function computeBreakdown(input: BreakdownInput): TokenBreakdown {
  const breakdown: TokenBreakdown = {
    system: 0,
    persona: 0,
    memorySummary: 0,
    memoryVector: 0,
    skills: 0,
    platform: 0,
    subtask: 0,
    systemOther: 0,
    history: 0,
    toolResults: 0,
    toolDefs: estimateToolDefinitionTokens(input.tools),
    reservedForReply: input.maxTokens,
    injectors: {},
  };
  const addOther = (key: string, tokens: number) => {
    breakdown.systemOther += tokens;
    breakdown.injectors[key] = (breakdown.injectors[key] ?? 0) + tokens;
  };
  const { messages } = input;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (isControlMessage(message)) continue;
    const tokens = input.messageTokens?.[index] ?? estimateMessageTokens(message);
    if (message.role === 'tool') {
      breakdown.toolResults += tokens;
      continue;
    }
    if (index === 0 && message.role === 'system') {
      breakdown.system += tokens;
      const persona = Math.min(tokens, input.personaPrompt ? estimateTextTokens(input.personaPrompt) : 0);
      breakdown.persona += persona;
      addOther(injectorKeyOf(input.instanceId, INJECTOR.systemPrompt), tokens - persona);
      continue;
    }
    const injector = message.metadata?.[WellKnownMetadataKeys.Injector];
    if (message.role === 'system' && typeof injector === 'string') {
      breakdown.system += tokens;
      const category = input.categories.get(injector);
      if (category && category !== 'other') breakdown[CATEGORY_BUCKET[category]] += tokens;
      else addOther(injectorKeyOf(input.instanceId, injector), tokens);
      continue;
    }
    breakdown.history += tokens;
  }
  return breakdown;
}

/** The display table: history, tool results, tool definitions, persona, summary, vector memory, skills, platform, subtasks, other. */
export function usageParts(breakdown: TokenBreakdown): TokenUsagePart[] {
  return [
    { label: textRef('agent.usage.history'), tokens: breakdown.history },
    { label: textRef('agent.usage.toolResults'), tokens: breakdown.toolResults },
    { label: textRef('agent.usage.toolDefs'), tokens: breakdown.toolDefs },
    { label: textRef('agent.usage.persona'), tokens: breakdown.persona },
    { label: textRef('agent.usage.memorySummary'), tokens: breakdown.memorySummary },
    { label: textRef('agent.usage.memoryVector'), tokens: breakdown.memoryVector },
    { label: textRef('agent.usage.skills'), tokens: breakdown.skills },
    { label: textRef('agent.usage.platform'), tokens: breakdown.platform },
    { label: textRef('agent.usage.subtask'), tokens: breakdown.subtask },
    { label: textRef('agent.usage.systemOther'), tokens: breakdown.systemOther, injectors: { ...breakdown.injectors } },
  ];
}

export { usageTag };

export function formatUsageLine(event: TokenUsageEvent): string {
  const b = event.breakdown;
  const percent = (event.usageRatio * 100).toFixed(1);
  const memory = b.memorySummary + b.memoryVector;
  const other = b.systemOther + b.platform;
  return `[token-usage:${usageTag(event.usageRatio)}] ${event.sessionId} ${event.used}/${event.contextWindow} (${percent}%) sys=${b.system}(persona=${b.persona} mem=${memory} skills=${b.skills} subtask=${b.subtask} other=${other}) hist=${b.history} tools=${b.toolResults}+${b.toolDefs}def reserve=${b.reservedForReply}`;
}

/** sessionId → { count, lastRatioBucket }: prints on a bucket change (first time included) or every N turns. */
export class UsageLogThrottle {
  private readonly state = new Map<string, { count: number; lastTag: UsageTag | undefined; lastTurn?: string }>();
  constructor(private readonly every: number) {}

  shouldLog(event: TokenUsageEvent): boolean {
    const entry = this.state.get(event.sessionId) ?? { count: 0, lastTag: undefined };
    this.state.set(event.sessionId, entry);
    const tag = usageTag(event.usageRatio);
    let forced = false;
    if (event.turnId !== undefined && event.turnId !== entry.lastTurn) {
      entry.lastTurn = event.turnId;
      entry.count++;
      forced = entry.count % this.every === 0;
    }
    const changed = tag !== entry.lastTag;
    entry.lastTag = tag;
    return changed || forced;
  }

  forget(sessionId: string): void {
    this.state.delete(sessionId);
  }
}
