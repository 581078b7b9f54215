// How many tokens of recalled messages one turn may carry: the configured most, and never more than a tenth of the
// turn's model context window. A 2,000-token block is a small part of a 128k window but a third of a 4k budget, where
// it pushed the history out every turn (compactions 4× as often, the prompt-cache share down 25–39 points in
// `npm run bench cache`) and left requests that no trim step could fit (turns failing on the window).
export const RECALL_WINDOW_SHARE = 0.1;

export function recallTokens(maxTokens: number, contextWindow: number): number {
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) return maxTokens;
  return Math.min(maxTokens, Math.floor(contextWindow * RECALL_WINDOW_SHARE));
}
