// This turn's segment of the message list (plugin-agent.zh.md 「指令类回合」, 「新消息怎么处理」): turn-context and
// turn-hint material, the volatile context, the queued-batch header, the inputs (archived as they enter), and the
// focus block before addressed inputs that join a multi-party room's turn.
import type { TurnInput } from '@aalis/api-agent';
import type { HistorySegment } from '@aalis/context-budget';
import { type IncomingMessage, type Message, wasAddressed } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { routeLine } from '../log-format.js';
import { protectMessage, type TurnParts } from './call-messages.js';
import { focusBlock, instructionBlock, isInstructionTurn, queueHeader, volatileContext } from './engine-messages.js';
import { archiveInput } from './turn-persistence.js';
import type { TurnContext, TurnKind, TurnProgress, TurnWithFacts } from './turn-state.js';

export function buildTurnParts({
  deps,
  state,
  system,
  history,
  built,
}: {
  deps: AgentDeps;
  state: TurnWithFacts;
  system: Message;
  history: HistorySegment;
  built: Record<'head' | 'turn-hint' | 'turn-context', Message[]>;
}): TurnParts {
  const parts: TurnParts = {
    turnId: state.turnId,
    system,
    head: built.head,
    // Built from the segment when something reads it (a middleware of agent:llm:before); the trim reads the segment.
    get history() {
      return history.toArray();
    },
    historySegment: history,
    turn: [],
    inputs: new Set(),
    instructions: new Set(),
  };
  const timeZone = deps.config.timeZone;
  const instruction = isInstructionTurn(state.kind);
  // turn-context goes before the volatile context; without one (delegation, host notice) before the block.
  parts.turn.push(...built['turn-context']);
  if (state.kind === 'conversation' || state.kind === 'idle') {
    parts.turn.push(
      volatileContext({
        i18n: deps.i18n,
        platform: state.platform,
        facts: state.facts,
        time: state.startedAt,
        timeZone,
      }),
    );
  }
  if (instruction) {
    parts.turn.push(...built['turn-hint']);
    const block = instructionBlock({
      i18n: deps.i18n,
      message: state.inputs[0]!.message,
      kind: state.kind as Exclude<TurnKind, 'conversation'>,
      time: state.startedAt,
      timeZone,
    });
    parts.turn.push(block);
    // Every instruction block is kept from step 4; the delegation and host-notice blocks are the opening input.
    protectMessage(parts, block, { instruction: true, entry: state.kind === 'idle' ? undefined : 'opened' });
    return parts;
  }
  // Only a batch of real people's messages from the queue gets the header; an injection from the queue runs alone.
  if (state.fromQueue && state.running.human) {
    const allUnaddressed = state.facts.multiParty && state.messages.every((message) => !wasAddressed(message));
    parts.turn.push(queueHeader({ i18n: deps.i18n, allUnaddressed }));
  }
  const userMessages = state.inputs.map((input) => inputMessage(state, input));
  // turn-hint falls before the last user message when there is no instruction block.
  userMessages.forEach((message, index) => {
    if (index === userMessages.length - 1) parts.turn.push(...built['turn-hint']);
    parts.turn.push(message);
    protectMessage(parts, message, { entry: 'opened' });
  });
  return parts;
}

export async function enterInput(
  deps: AgentDeps,
  { state, progress }: { state: TurnWithFacts; progress: TurnProgress },
  input: TurnInput,
  entry: 'opened' | 'joined',
  time: number,
) {
  const { archived, model } = await archiveInput(deps, state, progress, input.message, entry, time);
  if (archived) input.archived = archived;
  state.inputMessages.set(input, model);
}

/** The model-facing form of an input: its archived entry, or the content built the archive's way. */
export function inputMessage(state: Pick<TurnWithFacts, 'inputMessages'>, input: TurnInput): Message {
  return state.inputMessages.get(input) ?? { role: 'user', content: input.message.content };
}

/** Archives and appends the inputs that join at the insertion point; resolves how many messages it appended. */
export async function insertJoins(
  deps: AgentDeps,
  { state, progress }: { state: TurnContext; progress: TurnProgress },
  joined: IncomingMessage[],
): Promise<number> {
  const now = Date.now();
  const messages: Message[] = [];
  for (const message of joined) {
    if (deps.log.enabled('debug')) {
      deps.log.debug(routeLine({ label: '插入', message, sessionId: state.sessionId, turnId: state.turnId }));
    }
    const input: TurnInput = { message };
    state.inputs.push(input);
    state.messages.push(message);
    await enterInput(deps, { state, progress }, input, 'joined', now);
    messages.push(inputMessage(state, input));
  }
  if (state.facts.multiParty) {
    const addressed = joined.filter((message) => wasAddressed(message));
    if (addressed.length > 0) {
      state.addressedJoins.push(...addressed);
      state.parts.turn.push(
        focusBlock({ i18n: deps.i18n, addressed: state.addressedJoins, timeZone: deps.config.timeZone }),
      );
    }
  }
  for (const message of messages) {
    state.parts.turn.push(message);
    protectMessage(state.parts, message, { entry: 'joined' });
  }
  return messages.length;
}
