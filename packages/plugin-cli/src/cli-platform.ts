// The terminal platform plugin: platform "cli", the local user (an owner, see @aalis/runtime) talking in one
// session. It feeds the agent's stream, tool executions, notices, queue and turn events of that session to a
// front end: the interactive terminal (`aalis start`) or line-by-line chat (`aalis chat`). It adds /usage (the
// token-usage line on demand) and /reasoning (the previous turn's full reasoning).
import { userInfo } from 'node:os';
import type { TokenUsageEvent } from '@aalis/api-agent';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { platform } from '@aalis/api-platform';
import { sessionManager } from '@aalis/api-session-manager';
import '@aalis/api-session-manager';
import '@aalis/api-tools';
import {
  config,
  definePlugin,
  events,
  i18n,
  lifecycle,
  logger,
  optional,
  type PluginDefinition,
  textRef,
} from '@aalis/core';
import { type CliConfig, cliConfigSchema, cliSessionId } from './cli-config.js';
import { formatUsageLine } from './format.js';
import type { CliExit, Frontend } from './frontend.js';
import { InteractiveChat } from './interactive-chat.js';
import { LineChat } from './line-chat.js';
import type { LocalUser } from './send-input.js';
import { sender } from './send-input.js';
import { styleFor } from './style.js';
import './cli-texts.js';

export const CLI_PLATFORM = 'cli';

export interface CliPlatformOptions {
  /** `interactive`: the terminal chat; `lines`: one message per input line, replies on the output. */
  mode: 'interactive' | 'lines';
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Overrides the configured session id (`--session <id>`). */
  session?: string;
  /** For NO_COLOR (default process.env). */
  env?: Record<string, string | undefined>;
  /** Clock of the Ctrl-C double-press window (tests). */
  now?: () => number;
}

export interface CliPlatform {
  readonly plugin: PluginDefinition<ReturnType<typeof uses>, CliConfig>;
  /** Starts the front end once the plugin is active; resolves when the user left or the input ended. */
  run(): Promise<CliExit>;
  /** Stops reading input (a shutdown from outside). */
  close(): void;
  /** Prints lines above the prompt (interactive) — log records, for instance; ignored in lines mode. */
  print(lines: readonly string[]): void;
  /** The session the terminal talks in (known once the plugin is active). */
  sessionId(): string | undefined;
}

const uses = () => ({
  config,
  events,
  i18n,
  logger,
  lifecycle,
  gateway,
  hooks: optional(hooks),
  commands: optional(commands),
  sessionManager: optional(sessionManager),
  platform: optional(platform),
});

export function createCliPlatform(options: CliPlatformOptions): CliPlatform {
  let frontend: Frontend | undefined;
  let activeSession: string | undefined;
  let ensureSession: () => Promise<void> = async () => {};
  let closed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const plugin = definePlugin({
    name: '@aalis/plugin-cli',
    uses: uses(),
    config: cliConfigSchema,
    apply({ config, events, i18n, logger, lifecycle, gateway, hooks, commands, sessionManager, platform }) {
      const settings = config.use;
      const sessionId = cliSessionId(settings, options.session);
      activeSession = sessionId;
      const t = i18n.use.t;
      const style = styleFor(options.output, options.env);
      const user: LocalUser = { userId: settings.userId, displayName: settings.displayName ?? osUserName() };
      const send = sender(() => (gateway.available ? gateway.use : undefined));
      const usage = new Map<string, TokenUsageEvent>();
      const reasoning = new Map<string, { turnId: string; text: string }>();

      frontend ??=
        options.mode === 'interactive'
          ? new InteractiveChat({
              input: options.input,
              output: options.output,
              sessionId,
              user,
              send,
              style,
              t,
              reasoning: settings.reasoning,
              prompt: settings.prompt,
              usageAfterTurn: settings.usageAfterTurn,
              latestUsage: () => usage.get(sessionId),
              ...(options.now ? { now: options.now } : {}),
            })
          : new LineChat({
              input: options.input,
              output: options.output,
              sessionId,
              user,
              send,
              onUndelivered: (text, outcome) => logger.use.warn('a line was not delivered', { outcome, text }),
            });
      const view = frontend;

      events.use.on('outbound:stream', (fragment) => {
        if (fragment.reasoningDelta) {
          const entry = reasoning.get(fragment.sessionId);
          if (entry?.turnId === fragment.turnId) entry.text += fragment.reasoningDelta;
          else reasoning.set(fragment.sessionId, { turnId: fragment.turnId, text: fragment.reasoningDelta });
        }
        if (fragment.sessionId === sessionId) view.fragment(fragment);
      });
      events.use.on('outbound:message', (message) => {
        if (message.sessionId !== sessionId) return;
        if (message.platform !== undefined && message.platform !== CLI_PLATFORM) return;
        view.message(message);
      });
      events.use.on('tool:execute', (event) => {
        if (event.sessionId === sessionId) view.toolExecute(event);
      });
      events.use.on('agent:queue', (event) => {
        if (event.sessionId === sessionId) view.queueChanged(event.waiting);
      });
      events.use.on('token:usage', (event) => {
        if (event.turnId !== undefined) usage.set(event.sessionId, event);
      });
      events.use.on('session:deleted', ({ sessionId: deleted }) => {
        usage.delete(deleted);
        reasoning.delete(deleted);
      });
      // Registrars: attached while a hooks provider is selected, withdrawn with this plugin.
      hooks.use.middleware('agent:turn:before', async (context, next) => {
        if (context.sessionId === sessionId) view.turnStarted(context);
        await next();
      });
      hooks.use.middleware('agent:turn:after', async (context, next) => {
        if (context.sessionId === sessionId) view.turnEnded(context);
        await next();
      });
      commands.use.register({
        name: 'usage',
        description: textRef('cli.command.usage'),
        handler: ({ sessionId: asked, t }) => {
          const event = usage.get(asked);
          return event ? formatUsageLine(event, t) : textRef('cli.usage.none');
        },
      });
      commands.use.register({
        name: 'reasoning',
        description: textRef('cli.command.reasoning'),
        handler: ({ sessionId: asked }) => reasoning.get(asked)?.text || textRef('cli.reasoning.none'),
      });
      platform.use.register({
        id: CLI_PLATFORM,
        type: 'local',
        capabilities: { streaming: true, quoting: false, rooms: false },
      });
      ensureSession = async () => {
        if (!sessionManager.available) return;
        try {
          await sessionManager.use.ensure({
            id: sessionId,
            kind: 'cli',
            platform: CLI_PLATFORM,
            title: user.displayName,
          });
        } catch (error) {
          logger.use.warn('could not register the terminal session', { sessionId, error: String(error) });
        }
      };
      lifecycle.use.onDispose(() => view.close());
      markReady();
    },
  });

  return {
    plugin,
    async run() {
      await ready;
      if (closed || !frontend) return 'closed';
      await ensureSession();
      return frontend.run();
    },
    close() {
      closed = true;
      frontend?.close();
    },
    print(lines) {
      frontend?.print(lines);
    },
    sessionId: () => activeSession,
  };
}

function osUserName(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}
