// The bridge to @plingjs/agent: the page's actions as the runtime's tools (arguments checked against the declared
// schema, confirmation policy, sensitive values restored for the handler and redacted for the model) and the page
// snapshot as the per-turn system prompt.
import { describeViolations, type JsonSchema, validateJsonSchema } from '@aalis/schema-message';
import {
  type AgentConfig,
  type AgentEnv,
  type AgentSession,
  type AgentTool,
  type Approval,
  isAbortError,
  type Locale,
  mapPlainData,
  resolveAgentConfig,
  type Telemetry,
} from '@plingjs/agent';
import { type Action, type ActionContext, requiresConfirmation } from './action.js';
import { PageError } from './errors.js';
import { createHandoffAction, HANDOFF_ACTION_ID } from './handoff-action.js';
import type { Page } from './page.js';
import { redact } from './sensitive.js';
import { restoreSensitive } from './sensitive-vault.js';
import { type PageTexts, pageTexts } from './texts.js';

export interface ToRuntimeOptionsOptions {
  /**
   * The config given to createAgentRuntime: `defaultApproval` and `locale` are resolved from it the same way (env
   * included).
   */
  config?: AgentConfig;
  env?: AgentEnv;
  /** Adds the built-in `handoff` action. Default true. */
  handoffAction?: boolean;
}

export interface PageRuntimeOptions {
  /** The page's current actions as tools; the runtime reads it at the start of every turn. */
  tools: () => AgentTool[];
  /** The page snapshot in the configured locale. */
  buildSystemPrompt: () => string;
  /**
   * The page's values as a redactor, for the runtime: whatever carries one of them out (the user's text, a result a
   * handler or a PostToolUse hook produced, an error, an event, a trace entry) shows its marker instead.
   */
  redactor: () => (text: string) => string;
}

interface Rendering {
  page: Page;
  defaultApproval: Approval;
  locale: Locale;
  texts: PageTexts;
}

/**
 * `{ tools, buildSystemPrompt }` for createAgentRuntime. `tools` reflects the page's actions each time it is read
 * (every turn), so an action registered after the runtime or session was created is offered on the next turn and
 * one unregistered is no longer offered; a call to an action removed during the turn answers ACTION_UNAVAILABLE.
 * Snapshot headings and error messages use the config's `locale`.
 */
export function toRuntimeOptions(page: Page, options: ToRuntimeOptionsOptions = {}): PageRuntimeOptions {
  const { defaultApproval, locale } = resolveAgentConfig({ config: options.config, env: options.env });
  const rendering: Rendering = { page, defaultApproval, locale, texts: pageTexts(locale) };
  const withHandoff = options.handoffAction !== false;
  if (withHandoff && page.actions.get(HANDOFF_ACTION_ID)) {
    throw new PageError('DUPLICATE_ACTION', rendering.texts.errors.handoffCollision(HANDOFF_ACTION_ID));
  }
  const handoffTool = withHandoff ? toTool(rendering, createHandoffAction(locale), true) : undefined;
  // One tool object per declaration, so an unchanged page gives the same tools turn after turn.
  const tools = new WeakMap<Action, AgentTool>();
  const toolOf = (action: Action): AgentTool => {
    let tool = tools.get(action);
    if (!tool) {
      tool = toTool(rendering, action, false);
      tools.set(action, tool);
    }
    return tool;
  };
  return {
    tools: () => {
      // A page action named like the built-in (registered after this call) is left out: the built-in keeps it.
      const declared = page.actions.list().filter((action) => !handoffTool || action.id !== HANDOFF_ACTION_ID);
      const list = declared.map(toolOf);
      if (handoffTool) list.push(handoffTool);
      return list;
    },
    buildSystemPrompt: () => page.snapshot(locale),
    redactor: () => page.redactor(),
  };
}

function toTool({ page, defaultApproval, locale, texts }: Rendering, declared: Action, builtIn: boolean): AgentTool {
  return {
    name: declared.id,
    id: declared.id,
    description: declared.description,
    parameters: declared.parameters,
    async execute(modelArgs, { signal, sessionId, callId, turn }) {
      // The current declaration, not the one captured at startup: the page may have moved on.
      const action = builtIn ? declared : page.actions.get(declared.id);
      if (!action) {
        throw new PageError('ACTION_UNAVAILABLE', texts.errors.actionUnavailable(declared.id));
      }
      // The model's own arguments are checked, before markers are restored: the violations then quote only what the
      // model wrote (never a real sensitive value, nor its length), and they are what it can repair. A parameter the
      // model fills with a marker is therefore a string to the schema (as the model sees it), e.g. `{ type: 'string' }`.
      // Against the current declaration: its handler is the one that would run.
      const violations = validateJsonSchema(action.parameters as JsonSchema, modelArgs);
      if (violations.length > 0) {
        const described = describeViolations({ violations, locale });
        throw new PageError('INVALID_ARGUMENTS', texts.errors.invalidArguments(action.id, described));
      }
      const args = restoreSensitive(modelArgs, page.sensitiveValues(), locale) as Record<string, unknown>;
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
          throw new PageError('CONFIRMATION_REJECTED', texts.errors.confirmationRejected(action.id, decision.reason));
        }
      }
      const context: ActionContext = {
        actionId: action.id,
        signal,
        sessionId,
        callId,
        turn,
        // The handler holds real values: what it hands the queue (shown in page events) is redacted by value.
        requestHandoff: (input) => {
          const redactor = page.redactor();
          const reason = typeof input.reason === 'string' ? redactor(input.reason) : input.reason;
          const handoff = input.context === undefined ? {} : { context: redactByValue(input.context, redactor) };
          return page.handoffs.request({ ...handoff, reason, actionId: action.id, sessionId });
        },
      };
      try {
        // By wrapper and by value: a handler that echoes a restored value (`({ to }) => ({ sentTo: to })`) returns
        // the real address, which must go back as its marker.
        return redactByValue(redact(await action.handler(args, context)), page.redactor());
      } catch (error) {
        throw redactThrown(page, error);
      }
    },
  };
}

/**
 * A copy of plain data with each page value replaced by its marker: in strings, and numbers whose text contains
 * one (a number that is a sensitive value becomes its marker string).
 */
function redactByValue(value: unknown, redactor: (text: string) => string): unknown {
  return mapPlainData(value, (leaf) => {
    if (typeof leaf === 'string') return redactor(leaf);
    if (typeof leaf !== 'number' && typeof leaf !== 'bigint') return leaf;
    const text = String(leaf);
    const redacted = redactor(text);
    return redacted === text ? leaf : redacted;
  });
}

/**
 * A handler's error reaches the model as its message: the page's sensitive values in it are replaced by their
 * markers (the same object is rethrown, so its class and code stay). Aborts pass through untouched.
 */
function redactThrown(page: Page, error: unknown): unknown {
  if (typeof error === 'string') return page.redactText(error);
  if (!(error instanceof Error) || isAbortError(error)) return error;
  const scrubbed = page.redactText(error.message);
  if (scrubbed !== error.message) error.message = scrubbed;
  return error;
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
