// One turn, every step in the order of plugin-agent.zh.md 「核心流程」: turn:before (archiving the inputs first),
// system prompt, history, tools, contributions, then model calls with the insertion point, the trim, streaming,
// token:usage and the tool loop, the reply, saving, sending and turn:after.
import { agentErrors, type TurnInput } from '@aalis/api-agent';
import { AalisError, textRef } from '@aalis/core';
import { type NoticeText, renderNoticeText } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { PendingInput, RunningTurn, SessionChannel } from '../channel/session-channel.js';
import { describe, routeLine } from '../log-format.js';
import { INJECTOR, systemMessage, turnKindOf } from './engine-messages.js';
import { callLength, lazyLlmBefore, relaunched } from './llm-before-context.js';
import { callModel, toLlmTool } from './model-call.js';
import { buildTurnMaterial } from './prompt-sources.js';
import { deliverReply } from './reply-delivery.js';
import { readSessionFacts } from './session-facts.js';
import { decodeEnvelope } from './structured-output.js';
import { runToolBatch } from './tool-batch.js';
import { contextOverflowError, trimCall } from './trim-call.js';
import { finishTurn, sendTurnMessage } from './turn-persistence.js';
import { buildTurnParts, enterInput, insertJoins } from './turn-segment.js';
import { readTurnSettings } from './turn-settings.js';
import {
  newTurnProgress,
  type SessionFacts,
  type TurnContext,
  type TurnOpening,
  type TurnProgress,
  type TurnWithFacts,
} from './turn-state.js';
import { reportUsage } from './usage-emitter.js';

export interface RunTurnOptions {
  deps: AgentDeps;
  channel: SessionChannel;
  running: RunningTurn;
  batch: PendingInput[];
  fromQueue: boolean;
  /** The session's generation when the opening input reached the agent (a deletion bumps it). */
  generation: number;
}

export async function runTurn({ deps, channel, running, batch, fromQueue, generation }: RunTurnOptions): Promise<void> {
  const opener = batch[0]!.message;
  const inputs: TurnInput[] = batch.map((pending) => ({ message: pending.message }));
  const sessionId = opener.sessionId;
  // Debug lines are built only when something records debug (the file log is at info): building them for nobody cost
  // CPU on every turn.
  if (deps.log.enabled('debug')) {
    for (const message of inputs.map((input) => input.message)) {
      deps.log.debug(routeLine({ label: '开轮', message, sessionId, turnId: running.turnId }));
    }
  }
  let reached = false;
  try {
    const result = await deps.hooks.use.run(
      'agent:turn:before',
      { turnId: running.turnId, sessionId, inputs },
      async () => {
        reached = true;
        await turnBody({ deps, channel, running, inputs, fromQueue, generation });
      },
    );
    reached = result.reachedCentre;
  } catch (error) {
    // A turn:before middleware threw before the turn ran: nothing archived, no turn:after.
    if (!reached)
      deps.log.error('agent:turn:before failed; the turn did not run', { sessionId, error: describe(error) });
    else deps.log.error('turn failed unexpectedly', { sessionId, turnId: running.turnId, error: describe(error) });
  } finally {
    deps.events.emit('outbound:stream', { sessionId, turnId: running.turnId, platform: opener.platform, done: true });
  }
}

async function turnBody({
  deps,
  channel,
  running,
  inputs,
  fromQueue,
  generation,
}: {
  deps: AgentDeps;
  channel: SessionChannel;
  running: RunningTurn;
  inputs: TurnInput[];
  fromQueue: boolean;
  generation: number;
}): Promise<void> {
  const opener = inputs[0]!.message;
  const startedAt = Date.now();
  const opening: TurnOpening = {
    turnId: running.turnId,
    sessionId: opener.sessionId,
    platform: opener.platform,
    kind: turnKindOf(opener),
    running,
    inputs,
    inputMessages: new Map(),
    messages: inputs.map((input) => input.message),
    addressedJoins: [],
    fromQueue,
    generation,
    startedAt,
  };
  const progress = newTurnProgress();
  let facts: SessionFacts | undefined;
  try {
    facts = await readSessionFacts(deps, opening.sessionId);
    const withFacts: TurnWithFacts = { ...opening, facts };
    // 1. Inputs are archived first, in order (idle prompts never).
    for (const input of inputs) await enterInput(deps, { state: withFacts, progress }, input, 'opened', startedAt);
    const settings = await readTurnSettings(deps, {
      sessionId: opening.sessionId,
      platform: opening.platform,
      venue: opener.venue,
    });
    if (!settings) {
      progress.outcome = 'error';
      progress.error = textRef('agent.error.noModel');
      // Sent in the host's language; its catalogue text goes with it, so a reader in another language gets it in theirs.
      const text: NoticeText = { key: 'agent.notice.system', params: { text: progress.error } };
      await sendTurnMessage(deps, opening, {
        kind: 'system',
        content: renderNoticeText(text, (flat) => deps.i18n.t(flat)),
        text,
      });
      return;
    }
    // 2–5.1 System prompt, history, tools, contributions (materialised once per turn, so later calls keep the
    // same prefix).
    const material = await buildTurnMaterial(deps, {
      sessionId: opening.sessionId,
      platform: opening.platform,
      venue: opener.venue,
      turnId: opening.turnId,
      settings,
      inputs,
      signal: running.controller.signal,
      dryRun: false,
    });
    const state: TurnContext = {
      ...withFacts,
      settings,
      tools: material.tools,
      parts: buildTurnParts({
        deps,
        state: withFacts,
        system: material.system,
        history: material.history.segment,
        built: material.contributions.byAnchor,
      }),
      categories: material.contributions.categories,
      historyAtStart: material.history.activeCount,
    };
    await modelLoop(deps, channel, { state, progress });
  } catch (error) {
    if (running.controller.signal.aborted) progress.outcome = 'aborted';
    else {
      progress.outcome = 'error';
      // The session sees a coded error in its reader's locale (its catalogue has both: the record keeps the text's
      // key for readers of another language); the log keeps English.
      progress.error = AalisError.isInstance(error) ? error.text : describe(error);
      deps.log.error('turn failed', { sessionId: opening.sessionId, turnId: opening.turnId, error: describe(error) });
      const text: NoticeText = { key: 'agent.notice.error', params: { reason: progress.error } };
      await sendTurnMessage(deps, opening, {
        kind: 'error',
        content: renderNoticeText(text, (flat) => deps.i18n.t(flat)),
        text,
      });
    }
  } finally {
    if (running.controller.signal.aborted && progress.outcome !== 'replied') progress.outcome = 'aborted';
    await finishTurn(deps, { ...opening, facts }, progress);
  }
}

async function modelLoop(
  deps: AgentDeps,
  channel: SessionChannel,
  turn: { state: TurnContext; progress: TurnProgress },
): Promise<void> {
  const { state, progress } = turn;
  const { running } = state;
  let iterationsExhausted = false;
  let formatRetries = 0;
  for (;;) {
    running.controller.signal.throwIfAborted();
    // Past the limit the tools stay in the request (the history holds tool calls: the Messages API refuses such a
    // request without tools, and dropping them would change the cached prefix); tool_choice 'none' forbids calls.
    const tools = state.tools;
    // The list is built only if a middleware reads it (see llm-before-context.ts).
    let before = lazyLlmBefore(state.parts, {
      tools: [...tools],
      acceptsImages: state.settings.model.capabilities.vision,
      sessionId: state.sessionId,
      turnId: state.turnId,
      source: state.messages[0]!.source,
      model: state.settings.model.id,
      iteration: progress.iteration,
    });
    let hook = await deps.hooks.use.run('agent:llm:before', before.context);
    // 5.3 The insertion point: real-person turns take the inputs waiting to join, archive them as joined, append
    // them, and assemble again until none is left.
    // Format retries take no new inputs.
    while (hook.reachedCentre && running.human && formatRetries === 0) {
      const joins = channel.takeJoins();
      if (joins.length === 0) break;
      progress.appended += await insertJoins(
        deps,
        turn,
        joins.map((pending) => pending.message),
      );
      before = relaunched(state.parts, before.context);
      hook = await deps.hooks.use.run('agent:llm:before', before.context);
    }
    if (!hook.reachedCentre) {
      deps.log.info('agent:llm:before did not continue; the turn ends without a model call', { turnId: state.turnId });
      return;
    }
    const { context } = before;
    const located = before.call();
    // Tool definitions count with the head; the max output is what the window leaves (never over the window).
    const trimmed = trimCall(deps, {
      call: located,
      tools: context.tools,
      settings: state.settings,
      historyIndex: deps.historyCache.trimIndex(state.sessionId),
    });
    const { trim } = trimmed;
    if (trim.trimmed) progress.trimmedOnce = true;
    if (trim.removed > 0) {
      deps.log.info('hard trim removed messages', {
        sessionId: state.sessionId,
        before: callLength(located),
        after: trim.messages.length,
      });
    }
    const llmTools = context.tools.map(toLlmTool);
    if (!trimmed.output.fits) throw contextOverflowError(deps, { trimmed, settings: state.settings });
    const response = await callModel(deps, state, {
      messages: trim.messages,
      tools: llmTools,
      ...(iterationsExhausted && llmTools.length > 0 ? { toolChoice: 'none' as const } : {}),
      maxOutputTokens: trimmed.output.maxOutputTokens,
    });
    reportUsage(deps, turn, { response, trim, tools: context.tools });
    await deps.hooks.use.run('agent:llm:after', {
      response,
      messages: trim.messages,
      sessionId: state.sessionId,
      turnId: state.turnId,
      model: state.settings.model.id,
      tools: llmTools,
    });
    if (response.toolCalls.length > 0 && !iterationsExhausted) {
      const limit = state.settings.maxToolIterations;
      if (limit !== undefined && progress.iteration >= limit) {
        // The limit is reached: these calls are not run; one more call, with tool_choice 'none', asks for the answer.
        iterationsExhausted = true;
        state.parts.turn.push(
          systemMessage(deps.i18n.t(textRef('agent.tool.iterationsExhausted', { limit })), INJECTOR.iterationLimit),
        );
        continue;
      }
      progress.appended += await runToolBatch(deps, turn, response);
      progress.iteration++;
      continue;
    }
    if (iterationsExhausted && response.toolCalls.length > 0 && response.content.trim() === '') {
      // A server that ignores tool_choice 'none' answered with calls only: not run, and the turn ends in a coded
      // error saying so instead of an empty (silent) reply; the tool results before the limit are already stored.
      throw toolLimitError(deps, state.settings.maxToolIterations ?? progress.iteration, response.toolCalls);
    }
    // The final reply is being written: later real-person inputs queue for the next turn.
    channel.closeJoins();
    const schema = state.settings.structuredOutput;
    if (schema && response.content.trim() !== '') {
      const decoded = decodeEnvelope({ i18n: deps.i18n, text: response.content, schema });
      if (!decoded.ok) {
        if (formatRetries >= deps.config.formatRetries) {
          throw new Error(deps.i18n.t(textRef('agent.structured.failed', { problem: decoded.problem })));
        }
        formatRetries++;
        // The failed version and the feedback go to the model only; neither is stored nor sent.
        state.parts.turn.push(
          { role: 'assistant', content: response.content },
          systemMessage(
            deps.i18n.t(textRef('agent.structured.retry', { problem: decoded.problem })),
            INJECTOR.formatCheck,
          ),
        );
        continue;
      }
      await deliverReply(deps, turn, response.content, response, decoded.visible);
      return;
    }
    await deliverReply(deps, turn, response.content, response);
    return;
  }
}

/** AALIS_AGENT_TOOL_LIMIT_NO_ANSWER, worded in the agent's locale (the turn shows the message as its reason). */
function toolLimitError(deps: AgentDeps, limit: number, calls: readonly { function: { name: string } }[]): Error {
  const names = [...new Set(calls.map((call) => call.function.name))];
  const tools = names.length > 5 ? `${names.slice(0, 5).join(', ')} …` : names.join(', ');
  const error = agentErrors.AALIS_AGENT_TOOL_LIMIT_NO_ANSWER(
    { limit, tools },
    { details: { limit, calls: calls.length } },
  );
  error.message = error.localized(deps.i18n.locale);
  return error;
}
