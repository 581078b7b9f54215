// The final reply (plugin-agent.zh.md 「核心流程」 agent:reply:before, 「保存」, 「发送」): empty replies are not saved;
// the stored reply carries the turn id, model and tokens, platform, her identity there, room and session kind, the
// visible text of a structured envelope, and the turn record; then it is dispatched. Storing it is the turn's one
// commit point: a stop that lands before it wins (nothing stored or sent), one after it stops nothing. A database that
// cannot be written at that moment holds the reply (storage-retry.ts) until it is stored, then it is sent.
import { type ModelUsage, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { commitReply } from '../channel/session-channel.js';
import { deletionBegun, heldWrite, saveAgentMessage, sendTurnMessage, turnRecordOf } from './turn-persistence.js';
import type { TurnContext, TurnProgress } from './turn-state.js';

export async function deliverReply(
  deps: AgentDeps,
  { state, progress }: { state: TurnContext; progress: TurnProgress },
  rawContent: string,
  response: { model: string; usage: ModelUsage },
  visibleContent?: string,
): Promise<void> {
  if (rawContent.trim() === '') {
    progress.outcome = 'silent';
    return;
  }
  const context = {
    content: rawContent,
    archiveContent: undefined as string | undefined,
    visibleContent: visibleContent,
    sessionId: state.sessionId,
    turnId: state.turnId,
    inputs: state.inputs,
  };
  await deps.hooks.use.run('agent:reply:before', context);
  if (context.content.trim() === '') {
    progress.outcome = 'silent';
    return;
  }
  const metadata: Record<string, unknown> = {
    [WellKnownMetadataKeys.TurnId]: state.turnId,
    [WellKnownMetadataKeys.Model]: response.model,
    [WellKnownMetadataKeys.PromptTokens]: response.usage.promptTokens,
    [WellKnownMetadataKeys.CompletionTokens]: response.usage.completionTokens,
    [WellKnownMetadataKeys.Platform]: state.platform,
    [WellKnownMetadataKeys.SessionKind]: state.facts.kind,
  };
  if (response.usage.cachedPromptTokens !== undefined) {
    metadata[WellKnownMetadataKeys.CachedPromptTokens] = response.usage.cachedPromptTokens;
  }
  const selfId = deps.platform.available ? deps.platform.use.get(state.platform)?.selfId : undefined;
  if (selfId !== undefined) metadata[WellKnownMetadataKeys.SelfId] = selfId;
  const venue = state.messages[0]!.venue;
  if (venue !== undefined) metadata[WellKnownMetadataKeys.Venue] = venue;
  if (context.visibleContent !== undefined) metadata[WellKnownMetadataKeys.VisibleContent] = context.visibleContent;
  // The commit point: stopped (or its session's deletion begun) since the model returned → the stop wins.
  if (!commitReply(state.running, { deletionBegun: deletionBegun(deps, state) })) {
    state.running.controller.signal.throwIfAborted();
  }
  progress.reply = context.content;
  progress.outcome = 'replied';
  metadata[WellKnownMetadataKeys.TurnRecord] = turnRecordOf(deps, state, progress);
  const reply = { role: 'assistant' as const, content: context.archiveContent ?? context.content, metadata };
  // Stored before it is sent; a database that cannot be written now holds it (bounded) until it can.
  // A retry after a lost answer to its COMMIT finds the reply stored and does not store it again.
  progress.storedReply = await heldWrite(
    deps,
    state,
    progress,
    Buffer.byteLength(JSON.stringify(reply)),
    () => saveAgentMessage(deps, state, progress, reply),
    {
      message: reply,
      result: (stored) => {
        progress.leftInHistory = true;
        return stored;
      },
    },
  );
  await sendTurnMessage(deps, state, { kind: 'reply', content: context.visibleContent ?? context.content });
}
