// Where steps 1 and 3 cut the history: from the earliest message, up to the message at which the dropped tokens
// first reach the target (a whole number of units); a cut inside a tool-call group takes the rest of the group.

/**
 * Returns how many history messages to drop. `tokens[i]` is the estimate of history message i, `unitEnd[i]` the
 * index of the last message of the unit (groupToolCalls unit) that message i belongs to. Drops everything when
 * the history never reaches the target.
 */
export function historyCut(tokens: readonly number[], unitEnd: readonly number[], target: number): number {
  if (target <= 0) return 0;
  let dropped = 0;
  for (let index = 0; index < tokens.length; index++) {
    dropped += tokens[index]!;
    if (dropped >= target) return unitEnd[index]! + 1;
  }
  return tokens.length;
}
