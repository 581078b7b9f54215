// What a real turn and a token:request snapshot build the same way (「快照与真实回合同一个读法」): the system
// prompt from the session's settings, the history window, the tool definitions and the prompt contributions.
import type { TurnInput } from '@aalis/api-agent';
import type { ToolDefinition } from '@aalis/api-tools';
import type { Message } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { buildSystemPrompt, systemMessage } from './engine-messages.js';
import { type LoadedHistory, loadHistory } from './history-loader.js';
import { type BuiltContributions, buildContributions } from './prompt-contributions.js';
import type { TurnSettings } from './turn-state.js';

export interface TurnMaterial {
  system: Message;
  history: LoadedHistory;
  tools: ToolDefinition[];
  contributions: BuiltContributions;
}

export async function buildTurnMaterial(
  deps: AgentDeps,
  {
    sessionId,
    platform,
    venue,
    turnId,
    settings,
    inputs,
    signal,
    dryRun,
  }: {
    sessionId: string;
    platform: string;
    venue: string | undefined;
    /** The turn whose own inputs leave the history (undefined for a snapshot). */
    turnId: string | undefined;
    settings: TurnSettings;
    inputs: readonly TurnInput[];
    signal: AbortSignal;
    dryRun: boolean;
  },
): Promise<TurnMaterial> {
  const system = systemMessage(
    buildSystemPrompt({
      i18n: deps.i18n,
      persona: settings.personaPrompt,
      systemPrompt: deps.config.systemPrompt,
      structuredOutput: settings.structuredOutput,
    }),
  );
  const history = await loadHistory(deps, { sessionId, turnId, historyLimit: settings.historyLimit });
  const tools =
    settings.model.capabilities.tools && deps.tools.available
      ? await deps.tools.use.definitions({ sessionId, platform, venue })
      : [];
  // The list snapshot is made when a contribution first reads it: most never do, and the history can be long.
  let snapshot: Message[] | undefined;
  const contributions = await buildContributions({
    contributions: deps.contributions.available ? deps.contributions.use : undefined,
    view: {
      sessionId,
      platform,
      inputs,
      signal,
      dryRun,
      contextWindow: settings.model.contextWindow,
      get messages() {
        snapshot ??= [system].concat(history.segment.toArray());
        return snapshot;
      },
    },
    timeoutMs: deps.config.promptBuildTimeoutMs,
    log: deps.log,
  });
  return { system, history, tools, contributions };
}
