// @aalis/api-agent: the orchestration contract.
export {
  type AbortOptions,
  type AgentService,
  agent,
  type BoundAgent,
  type ModelRef,
  type PreprocessorFn,
} from './agent-service.js';
export type { TurnInput, TurnOutcome } from './turn-input.js';
