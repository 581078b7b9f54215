// @aalis/plugin-budget: token or money budgets per person per day, per room per day and for the deployment per
// month, counted from llm:usage; the owners told once at the warning line (80 %); over budget, a notice replaces the
// model call (an agent:llm:before middleware that does not continue: the turn's inputs are already archived, so
// nothing is lost); owners exempt; /budget to see and adjust.
import '@aalis/api-agent';
import { authorisedIdentityOf, authority } from '@aalis/api-authority';
import { type BudgetService, budgets as budgetsService } from '@aalis/api-budget';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import '@aalis/api-llm';
import { openStore, storage } from '@aalis/api-storage';
import {
  config,
  definePlugin,
  events,
  type Infer,
  i18n,
  lifecycle,
  logger,
  optional,
  provide,
  s,
  setBounded,
  type TextRef,
  textRef,
} from '@aalis/core';
// The subpath, not the package: the adapters' HTTP exchange (and its transport) stays unloaded where no platform runs.
import { roomSessionId } from '@aalis/platform-room/room-session';
import { type Identity, type NoticeText, type OutgoingMessage, renderNoticeText } from '@aalis/schema-message';
import { type BudgetStore, postgresBudgetStore, sqliteBudgetStore } from './budget-store.js';
import { budgetErrors } from './budget-texts.js';
import { BUDGET_KINDS, type BudgetKind, type BudgetLine, Budgets, type Subject } from './budgets.js';

export const BUDGET_PLUGIN = '@aalis/plugin-budget';

export const budgetConfigSchema = s
  .object({
    unit: s
      .enum(['tokens', 'money'])
      .default('tokens')
      .describe(
        "What budgets count: 'tokens' (prompt + completion) or 'money' (the estimated cost from the per-model prices of the model providers' config; a model without prices costs 0).",
      ),
    personPerDay: s.number().min(0).default(0).describe('Budget of each person per day; 0 = none.'),
    roomPerDay: s.number().min(0).default(0).describe('Budget of each room (session) per day; 0 = none.'),
    deploymentPerMonth: s.number().min(0).default(0).describe('Budget of the whole deployment per month; 0 = none.'),
    warnAt: s
      .number()
      .min(0)
      .max(1)
      .default(0.8)
      .describe('Share of a budget at which the owners are told, once per budget and period.'),
    timeZone: s.string().default('UTC').describe('IANA time zone where days and months begin.'),
    currency: s.string().default('USD').describe("How money amounts are labelled (unit 'money')."),
    noticeWindowSeconds: s
      .number()
      .min(0)
      .default(60)
      .describe('At most one over-budget notice per person per room in this window; later refusals only log.'),
  })
  .describe('Budgets per person, room and deployment, counted from llm:usage.');

export type BudgetConfig = Infer<typeof budgetConfigSchema>;

const LIMIT_KEY: Record<BudgetKind, 'personPerDay' | 'roomPerDay' | 'deploymentPerMonth'> = {
  person: 'personPerDay',
  room: 'roomPerDay',
  deployment: 'deploymentPerMonth',
};

export function createBudgetPlugin({ now = Date.now }: { now?: () => number } = {}) {
  return definePlugin({
    name: BUDGET_PLUGIN,
    provides: [budgetsService],
    uses: {
      provide,
      config,
      hooks,
      events,
      storage,
      i18n,
      logger,
      lifecycle,
      gateway: optional(gateway),
      authority: optional(authority),
      commands: optional(commands),
    },
    config: budgetConfigSchema,
    async apply(handles) {
      const settings = handles.config.use;
      const log = handles.logger.use;
      const t = (text: string | TextRef) => handles.i18n.use.t(text);
      const store: BudgetStore = await openStore(handles.storage.use, {
        sqlite: sqliteBudgetStore,
        postgres: postgresBudgetStore,
      });
      const budgets = new Budgets(store, {
        unit: settings.unit,
        person: settings.personPerDay,
        room: settings.roomPerDay,
        deployment: settings.deploymentPerMonth,
        timeZone: settings.timeZone,
        warnAt: settings.warnAt,
      });
      const format = (amount: number) =>
        settings.unit === 'money'
          ? `${amount.toFixed(4)} ${settings.currency}`
          : `${Math.round(amount)}${t(textRef('budget.unit.tokens'))}`;
      const service: BudgetService = {
        async overview(options) {
          const top = Math.min(Math.max(Math.floor(options?.top ?? 20), 1), 200);
          return { ...(await budgets.overview(now(), top)), currency: settings.currency };
        },
        lines: ({ sessionId, person }) => budgets.lines({ sessionId, person }, now()),
        async setLimit(kind, amount) {
          if (amount !== undefined && (!Number.isFinite(amount) || amount < 0)) {
            throw budgetErrors.AALIS_BUDGET_SET_INVALID({ text: String(amount) });
          }
          await budgets.setLimit(kind, amount);
          const view = await budgets.limitView(kind);
          log.info(`budget: ${kind} limit set to ${view.limit} (${LIMIT_KEY[kind]})`);
          return view;
        },
      };
      handles.provide.use.service(budgetsService, service);
      const formatLimit = (limit: number) => (limit > 0 ? format(limit) : t(textRef('budget.unlimited')));
      // The same amounts as catalogue texts, for a notice each reader is shown in their language.
      const amountText = (amount: number): NoticeText | string =>
        settings.unit === 'money'
          ? `${amount.toFixed(4)} ${settings.currency}`
          : { key: 'budget.amount.tokens', params: { amount: Math.round(amount) } };
      const limitText = (limit: number) => (limit > 0 ? amountText(limit) : { key: 'budget.unlimited' });
      const notice = (text: NoticeText) => ({ content: renderNoticeText(text, (flat) => t(flat)), text });
      const isOwner = (identity: Identity | undefined) =>
        handles.authority.available && handles.authority.use.isOwner(identity);

      /** Who each running turn counts against: its session and the person who opened it. */
      const turns = new Map<string, Subject & { owner: boolean; platform: string; venue: string | undefined }>();
      /** The turn running in each session (llm:usage names the session only). */
      const sessionTurns = new Map<string, string>();
      const noticed = new Map<string, number>();
      /** Counting in progress per session: the next call's check waits for it (PostgreSQL takes a round trip). */
      const counting = new Map<string, Promise<void>>();

      const send = async (message: OutgoingMessage) => {
        if (!handles.gateway.available) return;
        await handles.gateway.use
          .dispatchOutbound(message)
          .catch((error: unknown) => log.warn('budget: a notice could not be sent', { error: String(error) }));
      };

      handles.hooks.use.middleware('agent:turn:before', async (turn, next) => {
        const opener = turn.inputs[0]?.message;
        const identity = opener ? authorisedIdentityOf(opener) : undefined;
        turns.set(turn.turnId, {
          sessionId: turn.sessionId,
          person: identity ? `${identity.platform}:${identity.userId}` : undefined,
          owner: isOwner(identity),
          platform: opener?.platform ?? '',
          venue: opener?.venue,
        });
        sessionTurns.set(turn.sessionId, turn.turnId);
        try {
          await next();
        } finally {
          turns.delete(turn.turnId);
          if (sessionTurns.get(turn.sessionId) === turn.turnId) sessionTurns.delete(turn.sessionId);
        }
      });

      handles.hooks.use.middleware('agent:llm:before', async (call, next) => {
        const subject = turns.get(call.turnId) ?? {
          sessionId: call.sessionId,
          person: undefined,
          owner: false,
          platform: call.sessionId.slice(0, Math.max(0, call.sessionId.indexOf(':'))),
          venue: undefined,
        };
        if (subject.owner) return next();
        await counting.get(call.sessionId);
        const over = await budgets.exhausted(subject, now());
        if (!over) return next();
        // The call does not run; the turn ends (its inputs are archived already).
        const key = `${subject.sessionId}|${subject.person ?? ''}`;
        const last = noticed.get(key);
        const notify = last === undefined || now() - last >= settings.noticeWindowSeconds * 1000;
        log.info(
          `budget: over ${over.kind} budget, no model call turn=${call.turnId} session=${call.sessionId}${notify ? ' notice' : ''}`,
        );
        if (!notify) return;
        setBounded(noticed, key, now(), 50_000);
        await send({
          sessionId: call.sessionId,
          platform: subject.platform,
          ...(subject.venue !== undefined ? { venue: subject.venue } : {}),
          ...notice({
            key: 'budget.over',
            params: {
              scope: { key: `budget.scope.${over.kind}` },
              used: amountText(over.used),
              limit: limitText(over.limit),
            },
          }),
          kind: 'system',
        });
      });

      handles.events.use.on('llm:usage', (event) => {
        const turnId = sessionTurns.get(event.sessionId);
        const subject = (turnId ? turns.get(turnId) : undefined) ?? { sessionId: event.sessionId, person: undefined };
        const previous = counting.get(event.sessionId) ?? Promise.resolve();
        const done = previous
          .then(() => budgets.count(subject, event, now()))
          .then(async (warnings) => {
            for (const line of warnings) await warnOwners(line);
          })
          .catch((error: unknown) => log.error('budget: a model call could not be counted', { error: String(error) }))
          .finally(() => {
            if (counting.get(event.sessionId) === done) counting.delete(event.sessionId);
          });
        counting.set(event.sessionId, done);
        return done;
      });

      /** Tells every owner once, in their private chat on their platform (and the log says so). */
      async function warnOwners(line: BudgetLine): Promise<void> {
        const who = line.scope.slice(line.scope.indexOf(':') + 1);
        const warning = notice({
          key: 'budget.warning',
          params: {
            scope: { key: `budget.warning.${line.kind}`, params: { who } },
            percent: Math.floor((line.used / line.limit) * 100),
            used: amountText(line.used),
            limit: limitText(line.limit),
            target: line.period,
          },
        });
        log.warn(`budget: ${line.kind} budget at ${Math.floor((line.used / line.limit) * 100)}% (${line.period})`);
        const owners = handles.authority.available ? handles.authority.use.owners() : [];
        for (const owner of owners) {
          await send({
            sessionId: roomSessionId(owner.platform, 'private', owner.userId),
            platform: owner.platform,
            venue: owner.userId,
            ...warning,
            kind: 'system',
          });
        }
      }

      if (handles.commands.available) {
        handles.commands.use.register({
          name: 'budget',
          description: textRef('budget.command'),
          usage: textRef('budget.command.usage'),
          async handler(context) {
            const identity = authorisedIdentityOf(context.message);
            const subject: Subject = {
              sessionId: context.sessionId,
              person: identity ? `${identity.platform}:${identity.userId}` : undefined,
            };
            if (context.args[0] === 'set') {
              if (!context.caller.isOwner) return textRef('budget.set.ownerOnly');
              const [, kind, amountText] = context.args;
              const amount =
                amountText === 'off' ? 0 : amountText === 'default' ? undefined : Number(amountText ?? Number.NaN);
              if (
                !BUDGET_KINDS.includes(kind as BudgetKind) ||
                (amount !== undefined && (!Number.isFinite(amount) || amount < 0))
              ) {
                throw budgetErrors.AALIS_BUDGET_SET_INVALID({ text: context.raw });
              }
              const { limit } = await service.setLimit(kind as BudgetKind, amount);
              return textRef('budget.set.done', {
                scope: t(textRef(`budget.scope.${kind as BudgetKind}`)),
                limit: formatLimit(limit),
              });
            }
            // What this session's last model call used is counted before the figures are read (on PostgreSQL the
            // count is still being written when a reply and the command that follows it come close together).
            await counting.get(context.sessionId);
            const lines = await budgets.lines(subject, now());
            return textRef('budget.show', {
              unit: t(textRef(settings.unit === 'money' ? 'budget.unit.money' : 'budget.unit.tokensName')),
              lines: lines
                .reverse()
                .map((line) =>
                  t(
                    textRef('budget.line', {
                      scope: t(textRef(`budget.scope.${line.kind}`)),
                      used: format(line.used),
                      limit: formatLimit(line.limit),
                    }),
                  ),
                )
                .join('\n'),
            });
          },
        });
      }
    },
  });
}

export default createBudgetPlugin();
