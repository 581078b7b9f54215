// The slash commands plugin-agent registers (plugin-agent.zh.md 「指令」): /model, /persona, /stop.
import { authorisedIdentityOf } from '@aalis/api-authority';
import { type CommandDefinition, pageFooter, pageFromFlags, paginate } from '@aalis/api-commands';
import { listModels, llm } from '@aalis/api-llm';
import { textRef } from '@aalis/core';
import type { AgentDeps } from './agent-deps.js';
import type { Orchestrator } from './channel/orchestrator.js';
import { modelRefText, resolveSessionModel } from './turn/turn-settings.js';

export function agentCommands(deps: AgentDeps, orchestrator: Orchestrator): CommandDefinition[] {
  return [
    {
      name: 'model',
      description: textRef('agent.command.model'),
      usage: textRef('agent.command.searchUsage'),
      async handler({ args, flags, t, sessionId, platform, message }) {
        const keyword = args.join(' ').trim().toLowerCase();
        const models = listModels({ providers: deps.services.providers(llm) }).filter(
          (model) =>
            keyword === '' || model.id.toLowerCase().includes(keyword) || model.name.toLowerCase().includes(keyword),
        );
        if (models.length === 0) return textRef('agent.command.model.empty');
        const page = paginate({ items: models, page: pageFromFlags(flags) });
        const setting =
          deps.sessionFields.available && deps.sessionFields.use.field('llm')
            ? await deps.sessionFields.use.get({ sessionId, platform, venue: message.venue }, 'llm')
            : undefined;
        const current = resolveSessionModel(deps, modelRefText(setting?.value))?.model.id;
        const lines = page.items.map((model) => {
          const mark = model.id === current ? ` ${t(textRef('agent.command.model.current'))}` : '';
          return `${model.id}  ${model.name}${mark}`;
        });
        return [
          t(textRef('agent.command.model.header', { page: page.page, pages: page.pages, total: page.total })),
          ...lines,
          t(pageFooter(page)),
        ].join('\n');
      },
    },
    {
      name: 'persona',
      description: textRef('agent.command.persona'),
      usage: textRef('agent.command.searchUsage'),
      handler({ args, flags, t }) {
        if (!deps.persona.available) return textRef('agent.command.persona.unavailable');
        const keyword = args.join(' ').trim();
        const personas = keyword === '' ? deps.persona.use.list() : deps.persona.use.search(keyword);
        if (personas.length === 0) return textRef('agent.command.persona.empty');
        const page = paginate({ items: personas, page: pageFromFlags(flags) });
        const lines = page.items.map((persona) => `${persona.id}  ${persona.name}`);
        return [
          t(textRef('agent.command.persona.header', { page: page.page, pages: page.pages, total: page.total })),
          ...lines,
          t(pageFooter(page)),
        ].join('\n');
      },
    },
    {
      name: 'stop',
      description: textRef('agent.command.stop'),
      async handler({ sessionId, message, caller }) {
        const answer = await orchestrator.stopAsCommand(sessionId, {
          by: authorisedIdentityOf(message),
          callerIsOwner: caller.isOwner,
          reason: '/stop',
        });
        if (answer === 'refused') return textRef('agent.stop.refused');
        // A turn whose reply is already being stored is past stopping: it is as good as finished.
        if (answer === 'noTurn') return textRef('agent.stop.noTurn');
        return undefined;
      },
    },
  ];
}
