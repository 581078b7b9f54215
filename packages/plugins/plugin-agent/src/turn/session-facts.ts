// Facts about a session read once per turn: its kind, whether its root chat is multi-party, whether it is a child.

import type { AgentDeps } from '../agent-deps.js';
import type { SessionFacts } from './turn-state.js';

export async function readSessionFacts(deps: AgentDeps, sessionId: string): Promise<SessionFacts> {
  if (!deps.sessionManager.available) return { kind: 'direct', multiParty: false, child: false };
  const manager = deps.sessionManager.use;
  const session = await manager.get(sessionId);
  const root = session?.parentId ? await manager.rootOf(sessionId) : session;
  return {
    kind: session?.kind ?? 'direct',
    // 「会话管理不在或根会话没有出生平台时按不是多方」
    multiParty: root?.originPlatform ? root.originChat?.multiParty === true : false,
    child: session?.parentId !== undefined,
  };
}
