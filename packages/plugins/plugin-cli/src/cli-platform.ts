// The terminal platform plugin: platform "cli", the local user (an owner, see @aalis/runtime) talking in one
// session. It feeds the agent's stream, tool executions, notices, queue and turn events of that session to a
// front end: the interactive terminal (`aalis start`) or line-by-line chat (`aalis chat`). It adds /usage (the
// token-usage line on demand) and /reasoning (the previous turn's full reasoning). On a shared database (PostgreSQL)
// a turn may run on another process: its replies and tool lines reach this terminal through the terminal relay.
import { userInfo } from 'node:os';
import type { TokenUsageEvent, TurnInput } from '@aalis/api-agent';
import '@aalis/api-background';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { platform } from '@aalis/api-platform';
import { sessionManager } from '@aalis/api-session-manager';
import { storage } from '@aalis/api-storage';
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
import type { IncomingMessage } from '@aalis/schema-message';
import { type CliConfig, cliConfigSchema, cliSessionId } from './cli-config.js';
import { formatUsageLine } from './format.js';
import type { CliExit, Frontend } from './frontend.js';
import { InteractiveChat } from './interactive-chat.js';
import { LineChat } from './line-chat.js';
import type { LocalUser } from './send-input.js';
import { sender } from './send-input.js';
import { styleFor } from './style.js';
import {
  audienceOf,
  fromOtherTerminal,
  markTerminal,
  stayWhileAnswering,
  stoppedHere,
  TerminalRelay,
} from './terminal-relay.js';
import './cli-texts.js';

export const CLI_PLATFORM = 'cli';

/**
 * How long piped input's end waits for work started in the terminal's session to finish (a background subtask
 * still running, the continuation turn its notice opens, a turn queued): then the command leaves as before, and
 * what still runs is stopped. Scheduled reminders are not waited for.
 */
export const PIPED_WAIT_MS = 10 * 60_000;

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
  storage: optional(storage),
});

export function createCliPlatform(options: CliPlatformOptions): CliPlatform {
  let frontend: Frontend | undefined;
  let activeSession: string | undefined;
  let ensureSession: () => Promise<void> = async () => {};
  let relayStarted: Promise<void> = Promise.resolve();
  let answeringOthers: () => boolean = () => false;
  let answeredOthers: () => boolean = () => false;
  let ownWorkDue: () => boolean = () => false;
  let ranOwnTasks: () => boolean = () => false;
  let warnLeaving: () => void = () => {};
  let closed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const plugin = definePlugin({
    name: '@aalis/plugin-cli',
    uses: uses(),
    config: cliConfigSchema,
    apply({ config, events, i18n, logger, lifecycle, gateway, hooks, commands, sessionManager, platform, storage }) {
      const settings = config.use;
      const sessionId = cliSessionId(settings, options.session);
      activeSession = sessionId;
      const t = i18n.use.t;
      const style = styleFor(options.output, options.env);
      const user: LocalUser = { userId: settings.userId, displayName: settings.displayName ?? osUserName() };
      // Only a shared engine hands inputs to another process (docs/decisions/input-hand-over.md): SQLite needs no relay.
      const relay =
        storage.available && storage.use.engine === 'postgres'
          ? new TerminalRelay({
              queue: storage.use.handOver(),
              leases: storage.use.leases(),
              logger: logger.use,
              showHere: (item) => {
                if (item.type === 'message' && item.message.sessionId === sessionId) view.message(item.message);
                if (item.type === 'tool' && item.event.sessionId === sessionId) view.toolExecute(item.event);
              },
            })
          : undefined;
      const terminal = relay?.terminal;
      const toGateway = sender(() => (gateway.available ? gateway.use : undefined));
      const send: typeof toGateway = (message) =>
        toGateway(terminal === undefined ? message : markTerminal(message, terminal));
      /** The inputs of the terminal turns running on this process (live: joins are appended). */
      const turns = new Map<string, TurnInput[]>();
      /** Whether this process ran a turn answering another terminal's lines (it owned their session). */
      let ranOthers = false;
      /** Sessions where lines of other terminals wait for a turn on this process. */
      const waitingOthers = new Set<string>();
      /** Turns of the terminal's session now running on this process, inputs queued for it, its running tasks. */
      const ownTurns = new Set<string>();
      let ownQueued = 0;
      const ownRunningTasks = new Set<string>();
      let sawOwnTasks = false;
      const audience = (turnId: string | undefined, turnSession: string) => {
        const inputs = turnId === undefined ? undefined : turns.get(turnId);
        // Not a turn of this process (a command's answer): shown in its session's terminal, as before.
        if (!inputs) return { here: turnSession === sessionId, elsewhere: [] as string[] };
        return audienceOf(inputs, terminal, turnSession === sessionId);
      };
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
        if (fragment.sessionId === sessionId && audience(fragment.turnId, fragment.sessionId).here) {
          view.fragment(fragment);
        }
      });
      // Other terminals' lines answered here are handed to them by the agent (its terminal forwarding).
      events.use.on('outbound:message', (message) => {
        if (message.platform !== undefined && message.platform !== CLI_PLATFORM) return;
        if (audience(message.turnId, message.sessionId).here) view.message(message);
      });
      events.use.on('tool:execute', (event) => {
        if (audience(event.turnId, event.sessionId).here) view.toolExecute(event);
      });
      events.use.on('agent:queue', (event) => {
        // Lines of other terminals waiting here for a turn: answered by this process, shown there.
        const theirs = (message: IncomingMessage) => fromOtherTerminal(message, terminal);
        if (event.waiting.some(theirs)) {
          ranOthers = true;
          waitingOthers.add(event.sessionId);
        } else waitingOthers.delete(event.sessionId);
        if (event.sessionId === sessionId) ownQueued = event.waiting.length;
        if (event.sessionId === sessionId) view.queueChanged(event.waiting.filter((message) => !theirs(message)));
      });
      events.use.on('agent:stopped-elsewhere', ({ message }) => {
        if (stoppedHere(message, terminal, sessionId)) view.stoppedElsewhere(t({ key: 'cli.turn.stopped' }));
      });
      events.use.on('background:changed', ({ sessionId: owner, task }) => {
        if (owner !== sessionId) return;
        const key = `${task.kind}:${task.id}`;
        if (task.status === 'running') {
          ownRunningTasks.add(key);
          sawOwnTasks = true;
        } else ownRunningTasks.delete(key);
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
        if (context.inputs[0]?.message.platform === CLI_PLATFORM) {
          turns.set(context.turnId, context.inputs);
          if (audienceOf(context.inputs, terminal, false).elsewhere.length > 0) ranOthers = true;
        }
        if (context.sessionId === sessionId && audience(context.turnId, context.sessionId).here) {
          view.turnStarted(context);
        }
        // The centre is the whole turn; a turn another middleware holds back never reaches turn:after.
        if (context.sessionId === sessionId) ownTurns.add(context.turnId);
        try {
          await next();
        } finally {
          ownTurns.delete(context.turnId);
        }
      });
      hooks.use.middleware('agent:turn:after', async (context, next) => {
        if (context.sessionId === sessionId && audience(context.turnId, context.sessionId).here) {
          view.turnEnded(context);
        }
        try {
          await next();
        } finally {
          turns.delete(context.turnId);
        }
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
      answeredOthers = () => ranOthers || answeringOthers();
      ownWorkDue = () => ownTurns.size > 0 || ownQueued > 0 || ownRunningTasks.size > 0;
      ranOwnTasks = () => sawOwnTasks;
      warnLeaving = () => {
        if (ownWorkDue()) {
          logger.use.warn('input ended; stopped waiting for the work still running in this session', {
            sessionId,
            waitedMinutes: PIPED_WAIT_MS / 60_000,
          });
        }
      };
      answeringOthers = () =>
        relay !== undefined &&
        (waitingOthers.size > 0 ||
          [...turns.values()].some((inputs) => audienceOf(inputs, terminal, false).elsewhere.length > 0));
      if (relay) {
        relayStarted = relay.start().catch((error: unknown) => {
          logger.use.warn('terminal: could not take messages from other processes', { error: String(error) });
        });
      }
      lifecycle.use.onDispose(async () => {
        view.close();
        await relay?.stop();
      });
      markReady();
    },
  });

  return {
    plugin,
    async run() {
      await ready;
      if (closed || !frontend) return 'closed';
      await relayStarted;
      await ensureSession();
      const exit = await frontend.run();
      // This process may be running turns that answer lines typed into other terminals (it owns their session):
      // leaving now would stop them unanswered, so it stays until it has run none for a moment.
      if (exit === 'end-of-input' && answeredOthers()) await stayWhileAnswering(answeringOthers, () => closed);
      // Piped input ended while work it started is due (a background subtask, the continuation turn it opens):
      // stay until it has finished, within PIPED_WAIT_MS. After a background task ran, a moment's quiet is waited
      // for even when nothing is due: its continuation may be between the queue and its turn's start.
      // At a terminal Ctrl-D still leaves at once (interactive-chat.ts): only piped input, and `aalis chat`, wait.
      const piped = options.mode === 'lines' || !(options.input.isTTY === true && options.output.isTTY === true);
      if (exit === 'end-of-input' && piped && (ownWorkDue() || ranOwnTasks())) {
        await stayWhileAnswering(ownWorkDue, () => closed, PIPED_WAIT_MS);
        if (!closed) warnLeaving();
      }
      return exit;
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
