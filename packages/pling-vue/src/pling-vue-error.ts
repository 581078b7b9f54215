// The adapter's own mistakes of use (no Pling instance in reach, a composable outside any scope). Coded like the
// other Pling errors; worded in English, since no Pling instance (and so no locale) may be known when they happen.

export type PlingVueErrorCode = 'PLING_NOT_PROVIDED' | 'NO_ACTIVE_SCOPE';

const MARKER = Symbol.for('plingjs.vue.error');

export class PlingVueError extends Error {
  readonly code: PlingVueErrorCode;
  readonly [MARKER] = true;

  constructor(code: PlingVueErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'PlingVueError';
    this.code = code;
  }

  static isInstance(value: unknown): value is PlingVueError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
