// The message list of one model call, kept as its three segments (head, history, this turn) so the trim knows
// which is which and later calls of the turn append to the same parts (plugin-agent.zh.md 「上下文裁剪算法」).
// What the trim protects is found by identity, not by object: an agent:llm:before middleware may replace the
// messages with copies (media normalisation maps the list), so this turn's inputs and instruction blocks carry
// marks in their metadata (this turn's TurnId; TurnEntry on inputs) that a copy keeps.
import type { HistorySegment, TrimParts } from '@aalis/context-budget';
import { type Message, type TurnEntry, WellKnownMetadataKeys } from '@aalis/schema-message';

export interface TurnParts {
  /** The turn the parts belong to; undefined for a token:request snapshot (nothing to protect). */
  turnId: string | undefined;
  /** The first system message (persona + systemPrompt + input convention). */
  system: Message;
  /** `head` contributions, in order. */
  head: Message[];
  /** The history sent to the model (windowed, grouped, control messages left out). */
  history: Message[];
  /**
   * The same history as a segment of the session's log (a real turn or snapshot sets it; `history` is then built
   * from it when first read): the trim can take the parts without the list being built (see partsCall).
   */
  historySegment?: HistorySegment;
  /** This turn, in order: contributions, volatile context, header, hint, inputs / instruction block, then appended. */
  turn: Message[];
  /** Messages of `turn` that are this turn's inputs (never trimmed; the continuation prompt follows the last). */
  inputs: Set<Message>;
  /** This turn's instruction blocks (delegation, host notice, idle prompt): step 4 never shortens or deletes them. */
  instructions: Set<Message>;
}

export interface AssembledCall {
  messages: Message[];
  headEnd: number;
  historyEnd: number;
  inputIndices: number[];
  instructionIndices: number[];
}

/**
 * Records `message` as one of this turn's inputs (`entry` given: the user message of an opened or joined input, or
 * the instruction block that stands for the opening input of a delegation or host-notice turn) and/or as an
 * instruction block, and marks it so that a copy is still recognised. The message is the turn's own model-facing
 * object (never a stored history entry), so marking it in place changes nothing stored.
 */
export function protectMessage(
  parts: TurnParts,
  message: Message,
  { entry, instruction = false }: { entry?: TurnEntry; instruction?: boolean },
): void {
  if (entry !== undefined) parts.inputs.add(message);
  if (instruction) parts.instructions.add(message);
  if (parts.turnId === undefined) return;
  const marks: Record<string, unknown> = { [WellKnownMetadataKeys.TurnId]: parts.turnId };
  if (entry !== undefined) marks[WellKnownMetadataKeys.TurnEntry] = entry;
  message.metadata = { ...message.metadata, ...marks };
}

function ofThisTurn(parts: TurnParts, message: Message): boolean {
  return parts.turnId !== undefined && message.metadata?.[WellKnownMetadataKeys.TurnId] === parts.turnId;
}

/** One of this turn's inputs: the recorded object, or a copy that kept its marks. */
export function isTurnInput(parts: TurnParts, message: Message): boolean {
  if (parts.inputs.has(message)) return true;
  return ofThisTurn(parts, message) && message.metadata?.[WellKnownMetadataKeys.TurnEntry] !== undefined;
}

/** One of this turn's instruction blocks: the recorded object, or a system copy that kept its turn mark. */
export function isTurnInstruction(parts: TurnParts, message: Message): boolean {
  if (parts.instructions.has(message)) return true;
  return parts.instructions.size > 0 && message.role === 'system' && ofThisTurn(parts, message);
}

export function assemble(parts: TurnParts): AssembledCall {
  // concat copies the (possibly long) history in one go; a spread walks it with an iterator.
  const messages = [parts.system].concat(parts.head, parts.history, parts.turn);
  return locateSegments(parts, messages);
}

/** A call whose list is the parts themselves (no middleware read or replaced it): nothing to find again. */
export interface PartsCall {
  parts: TrimParts;
  inputIndices: number[];
  instructionIndices: number[];
}

/**
 * The call as parts, for a list nobody else saw: the history stays a segment of its log, so nothing proportional
 * to it is built. Inputs and instruction blocks are the recorded objects in this turn's segment, at the indices
 * the assembled list would give them (what locateSegments finds in the untouched list).
 */
export function partsCall(parts: TurnParts, history: HistorySegment): PartsCall {
  const head = [parts.system, ...parts.head];
  const historyEnd = head.length + history.length;
  const inputIndices: number[] = [];
  const instructionIndices: number[] = [];
  parts.turn.forEach((message, index) => {
    if (isTurnInput(parts, message)) inputIndices.push(historyEnd + index);
    if (isTurnInstruction(parts, message)) instructionIndices.push(historyEnd + index);
  });
  return { parts: { head, history, turn: parts.turn }, inputIndices, instructionIndices };
}

/**
 * Finds the segments again in a list a hook middleware may have edited: by identity of the first history and first
 * turn message (the same object, or a copy with the same storage id); inputs and instruction blocks by their marks
 * (or, for copies without metadata in a list of unchanged shape, by position and role). Falls back to the original
 * part sizes when the markers were replaced.
 */
export function locateSegments(parts: TurnParts, messages: Message[]): AssembledCall {
  const firstHistory = parts.history[0];
  const firstTurn = parts.turn[0];
  const turnStart = firstTurn ? indexOfMessage(messages, firstTurn) : messages.length;
  const historyEnd = turnStart >= 0 ? turnStart : Math.max(0, messages.length - parts.turn.length);
  const historyStart = firstHistory ? indexOfMessage(messages, firstHistory) : historyEnd;
  const headEnd =
    historyStart >= 0 && historyStart <= historyEnd ? historyStart : Math.min(historyEnd, 1 + parts.head.length);
  const inputIndices: number[] = [];
  const instructionIndices: number[] = [];
  // Only this turn's segment holds its inputs; a history entry of the same turn id (none today) is not one.
  for (let index = historyEnd; index < messages.length; index++) {
    const message = messages[index]!;
    if (isTurnInput(parts, message)) inputIndices.push(index);
    if (isTurnInstruction(parts, message)) instructionIndices.push(index);
  }
  // Copies rebuilt without their metadata: a list of the same shape still says which message is which.
  const originalLength = 1 + parts.head.length + parts.history.length + parts.turn.length;
  if (messages.length === originalLength) {
    // The original list from historyEnd on, without building the whole of it (the history can be long).
    const originalAt = (index: number): Message => {
      const historyStart = 1 + parts.head.length;
      const turnStart = historyStart + parts.history.length;
      if (index >= turnStart) return parts.turn[index - turnStart]!;
      if (index >= historyStart) return parts.history[index - historyStart]!;
      return index === 0 ? parts.system : parts.head[index - 1]!;
    };
    const byPosition = (protectedSet: Set<Message>, found: number[]) => {
      if (found.length >= protectedSet.size) return found;
      const indices = new Set(found);
      for (let index = historyEnd; index < originalLength; index++) {
        const message = originalAt(index);
        if (protectedSet.has(message) && messages[index]!.role === message.role) indices.add(index);
      }
      return [...indices].sort((a, b) => a - b);
    };
    return {
      messages,
      headEnd,
      historyEnd,
      inputIndices: byPosition(parts.inputs, inputIndices),
      instructionIndices: byPosition(parts.instructions, instructionIndices),
    };
  }
  return { messages, headEnd, historyEnd, inputIndices, instructionIndices };
}

function indexOfMessage(messages: readonly Message[], wanted: Message): number {
  const same = messages.indexOf(wanted);
  if (same >= 0 || wanted.id === undefined) return same;
  return messages.findIndex((message) => message.id === wanted.id);
}
