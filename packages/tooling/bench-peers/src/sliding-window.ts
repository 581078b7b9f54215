// The AI SDK peer's trimming: the AI SDK has none of its own, and its documentation's answer is to pass only the
// recent messages — a sliding window. Leading system messages stay; then the latest messages that fit the budget,
// starting at a user message, so a tool result never loses its call (and the current turn is always kept whole).

export interface WindowMessage {
  role: string;
}

export function slidingWindow<M extends WindowMessage>(
  messages: readonly M[],
  budget: number,
  countTokens: (message: M) => number,
): M[] {
  let head = 0;
  while (head < messages.length && messages[head]!.role === 'system') head++;
  let total = 0;
  for (let index = 0; index < head; index++) total += countTokens(messages[index]!);
  // The latest user message starts the turn being answered: everything from it on is sent, whatever it costs.
  let start = messages.length;
  while (start > head && messages[start - 1]!.role !== 'user') start--;
  if (start > head) start--;
  for (let index = start; index < messages.length; index++) total += countTokens(messages[index]!);
  // Earlier messages join while they fit; the window then starts at the earliest user message it holds.
  let earliestUser = start;
  for (let index = start - 1; index >= head; index--) {
    total += countTokens(messages[index]!);
    if (total > budget) break;
    if (messages[index]!.role === 'user') earliestUser = index;
  }
  return [...messages.slice(0, head), ...messages.slice(earliestUser)];
}
