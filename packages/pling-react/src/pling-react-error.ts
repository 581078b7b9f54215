// The one error this package adds: a hook or AgentDock used outside <PlingProvider>. A developer mistake, caught
// before any Pling (and so any locale) is known, hence worded in English; the code is the stable part.

export type PlingReactErrorCode = 'MISSING_PROVIDER';

const MARKER = Symbol.for('@plingjs/react/error');

export class PlingReactError extends Error {
  readonly code: PlingReactErrorCode;
  readonly [MARKER] = true;

  constructor(code: PlingReactErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'PlingReactError';
    this.code = code;
  }

  static isInstance(value: unknown): value is PlingReactError {
    return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
  }
}
