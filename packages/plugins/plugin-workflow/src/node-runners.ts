// The node kinds that reach the rest of the host: a turn as a delegated task (agent), a registered tool with the
// run's authorised identity (tool), a message to a session (send), and another workflow (workflow).
import type { BoundAgent } from '@aalis/api-agent';
import type { GatewayService } from '@aalis/api-gateway';
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { ToolsService } from '@aalis/api-tools';
import type { WorkflowService } from '@aalis/api-workflow';
import { type Locale, translate } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import type { AgentNodeTurns } from './agent-node-turns.js';
import type { Translate } from './definition-parser.js';
import type { NodeRunners } from './run-engine.js';

/** The platform and source of what workflows put into sessions. */
export const WORKFLOW_SOURCE = 'workflow';

export interface RunnerDeps {
  readonly agent: () => BoundAgent;
  readonly tools: () => ToolsService;
  readonly gateway: () => GatewayService | undefined;
  readonly sessions: () => SessionManagerService | undefined;
  readonly workflows: () => WorkflowService;
  readonly turns: AgentNodeTurns;
  readonly t: Translate;
  readonly locale: () => Locale;
}

/** A tool's text result as a value: JSON when it is JSON, the text otherwise. */
function toolOutputValue(content: string): unknown {
  const trimmed = content.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return content;
    }
  }
  return content;
}

export function nodeRunners(deps: RunnerDeps): NodeRunners {
  const platformOf = async (sessionId: string) => {
    const session = await deps.sessions()?.get(sessionId);
    return { platform: session?.platform ?? WORKFLOW_SOURCE, ...(session?.venue ? { venue: session.venue } : {}) };
  };
  return {
    async agent({ session, task }, context) {
      const where = await platformOf(session);
      const message: IncomingMessage = {
        sessionId: session,
        ...where,
        sender: {},
        content: deps.t('workflow.task', { workflow: context.run.workflow, node: context.nodeId, task }),
        source: WORKFLOW_SOURCE,
        triggerType: 'proactive',
        ...(context.run.by ? { actor: context.run.by } : {}),
        timestamp: Date.now(),
      };
      const remembered = typeof context.remembered.turnId === 'string' ? context.remembered.turnId : undefined;
      const turn: Parameters<AgentNodeTurns['run']>[0] = {
        sessionId: session,
        signal: context.signal,
        started: (turnId) => void context.remember({ turnId }),
      };
      // A cancel stops the turn this node started (not whatever else runs in the session).
      const stop = () => {
        const turnId = turn.turnId ?? remembered;
        if (turnId) deps.agent().abort(session, { turnId, reason: 'workflow run cancelled' });
      };
      context.signal.addEventListener('abort', stop, { once: true });
      try {
        await deps.turns.run(turn, () => deps.agent().handleMessage(message));
      } finally {
        context.signal.removeEventListener('abort', stop);
      }
      if (context.signal.aborted) throw new Error(deps.t('workflow.step.cancelled'));
      const end = turn.end;
      if (end?.outcome === 'replied' && end.reply !== undefined) return end.reply;
      if (end?.outcome === 'error') {
        const error = end.error === undefined ? '' : translate(end.error, deps.locale());
        throw new Error(deps.t('workflow.step.agentError', { error }));
      }
      throw new Error(deps.t('workflow.step.agentNoReply', { outcome: end?.outcome ?? 'none' }));
    },

    async tool({ tool, arguments: args }, context) {
      const by = context.run.by;
      const result = await deps.tools().execute({
        name: tool,
        arguments: args,
        context: {
          sessionId: `${WORKFLOW_SOURCE}:${context.run.id}`,
          platform: by?.platform ?? WORKFLOW_SOURCE,
          ...(by ? { userId: by.userId } : {}),
          participants: by ? [by] : [],
          inbound: { source: WORKFLOW_SOURCE, fromTurn: undefined, messageId: undefined },
          authorised: [by],
          signal: context.signal,
          turnId: `${context.run.id}:${context.stepKey}`,
          callId: `${context.run.id}:${context.stepKey}`,
          acceptsImages: false,
        },
      });
      if (result.isError) throw new Error(result.code ? `${result.content} (${result.code})` : result.content);
      return toolOutputValue(result.content);
    },

    async send({ session, text }) {
      const gateway = deps.gateway();
      if (!gateway) throw new Error(deps.t('workflow.step.sendFailed', { error: 'no gateway' }));
      const where = await platformOf(session);
      const report = await gateway.dispatchOutbound({ sessionId: session, ...where, content: text, kind: 'reply' });
      return { sent: report.emitted };
    },

    async workflow({ workflow, inputs }, context) {
      const service = deps.workflows();
      const known = typeof context.remembered.childRunId === 'string' ? context.remembered.childRunId : undefined;
      const childId =
        known ??
        (
          await service.start(workflow, inputs, {
            trigger: 'workflow',
            parentRunId: context.run.id,
            ...(context.run.by ? { by: context.run.by } : {}),
          })
        ).id;
      if (!known) await context.remember({ childRunId: childId });
      const cancelChild = () => void service.cancel(childId);
      context.signal.addEventListener('abort', cancelChild, { once: true });
      try {
        const child = await service.wait(childId, { signal: context.signal });
        if (!child) throw new Error(deps.t('workflow.step.cancelled'));
        if (child.status !== 'succeeded') throw new Error(child.error ?? child.status);
        return child.output;
      } finally {
        context.signal.removeEventListener('abort', cancelChild);
      }
    },
  };
}
