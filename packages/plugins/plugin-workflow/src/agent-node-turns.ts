// How an agent node knows its own turn: the turn that its delegated input opens runs in the async context of the
// handleMessage call that delivered it (plugin-agent.zh.md: 「回合跑在它的异步上下文里(编排的 agent 节点据此认出自己
// 那一轮)」), so the turn hooks find the node here. A node cancelled before its turn began keeps the turn from running.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TurnAfterContext } from '@aalis/api-agent';

export interface AgentNodeTurn {
  readonly sessionId: string;
  readonly signal: AbortSignal;
  turnId?: string;
  end?: Pick<TurnAfterContext, 'outcome' | 'reply' | 'error'>;
  /** Told the turn's id once it starts (kept with the step, so a cancel can stop that turn). */
  readonly started: (turnId: string) => void;
}

export class AgentNodeTurns {
  private readonly context = new AsyncLocalStorage<AgentNodeTurn>();

  /** Runs `deliver` (the agent's handleMessage) with the node as its async context. */
  run<T>(turn: AgentNodeTurn, deliver: () => Promise<T>): Promise<T> {
    return this.context.run(turn, deliver);
  }

  /** agent:turn:before: whether the turn may run (false: its node was cancelled before it began). */
  turnStarting(sessionId: string, turnId: string): boolean {
    const turn = this.context.getStore();
    if (!turn || turn.sessionId !== sessionId || turn.turnId !== undefined) return true;
    if (turn.signal.aborted) return false;
    turn.turnId = turnId;
    turn.started(turnId);
    return true;
  }

  /** agent:turn:after: the node's turn ended. */
  turnEnded(data: TurnAfterContext): void {
    const turn = this.context.getStore();
    if (turn && turn.turnId === data.turnId) {
      turn.end = {
        outcome: data.outcome,
        reply: data.reply,
        ...(data.error !== undefined ? { error: data.error } : {}),
      };
    }
  }
}
