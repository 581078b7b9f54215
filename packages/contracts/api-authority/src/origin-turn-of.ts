// The origin of a turn as the tool-call context sees it (plugin-agent.zh.md 「工具调用上下文」 and the /stop rule
// in 「指令」). Pure: the agent runs it with the authority service's isOwner, or literally when authority is absent.
import type { Identity, IncomingMessage, TurnOrigin } from '@aalis/schema-message';
import { authorisedIdentityOf, sameIdentity } from './caller.js';

/** Where the inputs of a turn came from (ToolCallContext.inbound). */
export interface InboundOrigin {
  /** The injector of the turn's inputs; undefined for a real person. */
  source: string | undefined;
  /** The turn a continuation comes from. */
  fromTurn: TurnOrigin | undefined;
  /** The platform message id of the turn's latest input. */
  messageId: string | undefined;
}

export interface OriginTurn {
  /** The platform of the turn: that of its opening (first) input. */
  platform: string;
  /** Who takes part in the turn; the owner's several identities are one participant (the first to arrive). */
  participants: Identity[];
  /** The physical speaker when every input has the same one (continuations: the originating turn's userId). */
  userId?: string;
  /** The authorised identity of each input, index for index (undefined = nobody). */
  authorised: (Identity | undefined)[];
  inbound: InboundOrigin;
}

/**
 * Computes the origin of a turn from the inputs already sent to the model, in arrival order.
 *
 * - authorised identity of an input: `actor`; for a real person without one, the sender's account; else nobody.
 * - participants: a real person's input adds its authorised identity; a continuation (`fromTurn`) adds the
 *   participants of the originating turn; another injection (scheduled, orchestrated…) adds its `actor`.
 *   A sender without an account adds nobody. Duplicates are dropped; with `isOwner`, every owner identity after
 *   the first to arrive is dropped too (the owner is one participant). Without `isOwner`, identities are literal.
 * - userId: the common physical speaker (`sender.userId`; for a continuation, `fromTurn.userId`) when all inputs
 *   have the same defined one; otherwise absent.
 * - inbound: the opening input's source and fromTurn, the latest input's messageId.
 *
 * Throws when `inputs` is empty: a turn always has an input.
 */
export function originTurnOf({
  inputs,
  isOwner,
}: {
  inputs: readonly IncomingMessage[];
  isOwner?: (identity: Identity) => boolean;
}): OriginTurn {
  const first = inputs[0];
  const last = inputs[inputs.length - 1];
  if (!first || !last) throw new TypeError('originTurnOf needs at least one input: a turn always has one.');
  const participants: Identity[] = [];
  let ownerSeen = false;
  const add = (identity: Identity | undefined) => {
    if (!identity || identity.userId === '') return;
    if (participants.some((existing) => sameIdentity(existing, identity))) return;
    if (isOwner?.(identity)) {
      if (ownerSeen) return;
      ownerSeen = true;
    }
    participants.push({ platform: identity.platform, userId: identity.userId });
  };
  const authorised = inputs.map((input) => authorisedIdentityOf(input));
  inputs.forEach((input, index) => {
    if (input.fromTurn) for (const participant of input.fromTurn.participants) add(participant);
    else if (input.source === undefined) add(authorised[index]);
    else add(input.actor);
  });
  const speakers = inputs.map((input) => (input.fromTurn ? input.fromTurn.userId : input.sender.userId));
  const speaker = speakers[0];
  const origin: OriginTurn = {
    platform: first.platform,
    participants,
    authorised,
    inbound: {
      source: first.source,
      fromTurn: first.fromTurn ?? inputs.find((input) => input.fromTurn)?.fromTurn,
      messageId: last.messageId,
    },
  };
  if (speaker !== undefined && speaker !== '' && speakers.every((other) => other === speaker)) origin.userId = speaker;
  return origin;
}
