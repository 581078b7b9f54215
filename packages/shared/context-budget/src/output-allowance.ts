// How many output tokens one request may ask for so that it never exceeds the model's window: messages + tool
// definitions + max output ≤ context window. The trim budget already reserves the model's max output (and a
// safety margin), so this only lowers the request's max output when the trim could not reach its budget (the
// 1024 floor of a small window, or protected material over budget).

/** Below this (or the model's max output, if smaller) a reply has no useful room: the request does not fit. */
export const MIN_REPLY_TOKENS = 128;

export interface OutputAllowanceOptions {
  contextWindow: number;
  /** The model's max output. */
  maxOutputTokens: number;
  /** Estimate of what the request sends: the trimmed messages plus the tool definitions (TrimResult.tokens). */
  promptTokens: number;
}

export interface OutputAllowance {
  /** The max output to send: the model's, lowered to the room the window leaves (never below 0). */
  maxOutputTokens: number;
  /** False when the room left is below MIN_REPLY_TOKENS (or the model's max output, if smaller): do not send. */
  fits: boolean;
  /** contextWindow − promptTokens (negative when the prompt alone is over the window). */
  room: number;
}

export function outputAllowance({
  contextWindow,
  maxOutputTokens,
  promptTokens,
}: OutputAllowanceOptions): OutputAllowance {
  // Plain calls, not a loop over pairs: this runs on every model call, mostly before V8 optimises it.
  checkFigure('contextWindow', contextWindow);
  checkFigure('maxOutputTokens', maxOutputTokens);
  checkFigure('promptTokens', promptTokens);
  const room = Math.floor(contextWindow - promptTokens);
  const allowance = Math.max(0, Math.min(maxOutputTokens, room));
  return { maxOutputTokens: allowance, fits: room >= Math.min(maxOutputTokens, MIN_REPLY_TOKENS), room };
}

function checkFigure(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`outputAllowance: ${name} must be a finite number ≥ 0, got ${value}.`);
  }
}
