// The orchestration service contract (api-agent.zh.md 「服务接口」, 「绑定接口」, 「预处理器」).
import { type Disposer, defineService, type ServiceDescriptor } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';

/** A model reference as stored by the `llm` session field: both parts non-empty. */
export interface ModelRef {
  provider: string;
  model: string;
}

/** Input preprocessor, run on agent:input:before once per input before it enters a turn. Not calling next drops it. */
export type PreprocessorFn = (message: IncomingMessage, next: () => Promise<void>) => Promise<void>;

export interface AbortOptions {
  /** Stop only if the running turn has this id. */
  turnId?: string;
  /** Also release queued and waiting-to-join inputs (archived without a turn id after the running turn settles). */
  queued?: boolean;
  /** Written only to the turn-end log line. */
  reason?: string;
  /** Who stopped the turn (same shape as IncomingMessage.actor); absent = no particular person. */
  by?: Identity;
}

export interface AgentService {
  /** Resolves when this input has settled: its turn ended, it was released, or it was dropped before a turn. */
  handleMessage(message: IncomingMessage): Promise<void>;
  /**
   * Stops the session's running turn; returns whether a running turn was stopped. A stop that lands before the
   * turn's reply is stored wins (nothing stored or sent, outcome `aborted`); once the reply is being stored, or the
   * turn is ending, there is nothing left to stop and it returns false.
   */
  abort(sessionId: string, options?: AbortOptions): boolean;
  /**
   * Stops and holds the sessions (all when `sessionIds` is undefined), releases their queued inputs without
   * archiving, waits for running turns to settle, runs `clear`, then releases the hold.
   */
  clearing(sessionIds: readonly string[] | undefined, clear: () => Promise<unknown>, reason?: string): Promise<void>;
  registerPreprocessor?(name: string, handler: PreprocessorFn): Disposer;
  /** Writes the session-layer model of a session (throws when settings are absent or the write is refused). */
  assignModel(sessionId: string, model: ModelRef): Promise<void>;
}

/** What consumers see through the handle: registerPreprocessor has registrar semantics (owner filled in). */
export interface BoundAgent extends AgentService {
  registerPreprocessor(name: string, handler: PreprocessorFn): Disposer;
}

export const agent: ServiceDescriptor<BoundAgent> = defineService<BoundAgent>('agent', {
  registrars: ['registerPreprocessor'],
});
