// The bridge to @plingjs/agent: the page's actions as the runtime's tools (confirmation policy, sensitive values
// restored for the handler and redacted for the model) and the page snapshot as the per-turn system prompt.
import {
  type AgentConfig,
  type AgentEnv,
  type AgentSession,
  type AgentTool,
  type Approval,
  resolveAgentConfig,
  type Telemetry,
} from '@plingjs/agent';
import { type Action, type ActionContext, requiresConfirmation } from './action.js';
import { PageError } from './errors.js';
import { HANDOFF_ACTION_ID, handoffAction } from './handoff-action.js';
import type { Page } from './page.js';
import { redact } from './sensitive.js';
import { restoreSensitive } from './sensitive-vault.js';

export interface ToRuntimeOptionsOptions {
  /** The config given to createAgentRuntime: `defaultApproval` is resolved from it the same way (env included). */
  config?: AgentConfig;
  env?: AgentEnv;
  /** Adds the built-in `handoff` action. Default true. */
  handoffAction?: boolean;
}

export interface PageRuntimeOptions {
  tools: AgentTool[];
  buildSystemPrompt: () => string;
}

/**
 * `{ tools, buildSystemPrompt }` for createAgentRuntime. The runtime fixes its tool list when a session starts, so
 * the tools are the actions declared now; an action unregistered later answers ACTION_UNAVAILABLE.
 */
export function toRuntimeOptions(page: Page, options: ToRuntimeOptionsOptions = {}): PageRuntimeOptions {
  const { defaultApproval } = resolveAgentConfig({ config: options.config, env: options.env });
  const actions = [...page.actions.list()];
  if (options.handoffAction !== false) {
    if (page.actions.get(HANDOFF_ACTION_ID)) {
      throw new PageError(
        'DUPLICATE_ACTION',
        `The page declares an action ${HANDOFF_ACTION_ID}, the built-in's id; rename it or pass handoffAction: false.`,
      );
    }
    actions.push(handoffAction);
  }
  return {
    tools: actions.map((action) => toTool(page, action, defaultApproval, action === handoffAction)),
    buildSystemPrompt: () => page.snapshot(),
  };
}

function toTool(page: Page, declared: Action, defaultApproval: Approval, builtIn: boolean): AgentTool {
  return {
    name: declared.id,
    id: declared.id,
    description: declared.description,
    parameters: declared.parameters,
    async execute(modelArgs, { signal, sessionId, callId, turn }) {
      // The current declaration, not the one captured at startup: the page may have moved on.
      const action = builtIn ? declared : page.actions.get(declared.id);
      if (!action) {
        throw new PageError(
          'ACTION_UNAVAILABLE',
          `${declared.id} is not available on the current page; use the actions the page lists now.`,
        );
      }
      const args = restoreSensitive(modelArgs, page.sensitiveValues()) as Record<string, unknown>;
      if (requiresConfirmation(action, args, defaultApproval)) {
        const decision = await page.confirmations.request(
          {
            actionId: action.id,
            description: action.description,
            danger: action.danger === true,
            arguments: modelArgs,
            sessionId,
            callId,
          },
          signal,
        );
        if (!decision.approved) {
          const why = decision.reason ? `: ${decision.reason}` : '.';
          throw new PageError(
            'CONFIRMATION_REJECTED',
            `The user did not approve ${action.id}${why} Do not retry it unless the user asks.`,
          );
        }
      }
      const context: ActionContext = {
        actionId: action.id,
        signal,
        sessionId,
        callId,
        turn,
        requestHandoff: (input) => page.handoffs.request({ ...input, actionId: action.id, sessionId }),
      };
      return redact(await action.handler(args, context));
    },
  };
}

/**
 * What the built-in clear button does: reset the session, clear both queues and (when given) telemetry.
 * session.reset() alone leaves the queues as they are, so a host calling it directly should use this instead.
 */
export function clearConversation({
  session,
  page,
  telemetry,
}: {
  session: Pick<AgentSession, 'reset'>;
  page: Pick<Page, 'clearAll'>;
  telemetry?: Pick<Telemetry, 'reset'>;
}): void {
  session.reset();
  page.clearAll();
  telemetry?.reset();
}
