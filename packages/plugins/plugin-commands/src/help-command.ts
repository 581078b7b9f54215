// /help: the commands the caller may run, paged (-p <n>), or one command's usage.
import { describeRequiredLevel } from '@aalis/api-authority';
import { type CommandDefinition, commandErrors, pageFooter, pageFromFlags, paginate } from '@aalis/api-commands';
import { textRef } from '@aalis/core';
import type { CommandRegistry } from './command-registry.js';

export function helpCommand({
  registry,
  pageSize,
}: {
  registry: CommandRegistry;
  pageSize: number;
}): CommandDefinition {
  return {
    name: 'help',
    description: textRef('commands.help.description'),
    usage: textRef('commands.help.usage'),
    handler({ args, flags, caller, t }) {
      const allowed = registry.list(caller);
      const wanted = args[0]?.replace(/^\//, '');
      if (wanted !== undefined) {
        const info = allowed.find((command) => command.name.toLowerCase() === wanted.toLowerCase());
        if (!info) throw commandErrors.AALIS_COMMAND_UNKNOWN({ name: wanted });
        return textRef('commands.help.detail', {
          name: info.name,
          usage: info.usage === undefined ? '' : t(info.usage),
          description: t(info.description),
          level: describeRequiredLevel(info.level),
        });
      }
      if (allowed.length === 0) return textRef('commands.help.empty');
      const page = paginate({ items: allowed, page: pageFromFlags(flags), pageSize });
      const lines = page.items.map((command) => {
        const usage = command.usage === undefined ? '' : ` ${t(command.usage)}`;
        return `/${command.name}${usage} — ${t(command.description)}`;
      });
      const footer = page.pages > 1 ? [t(pageFooter(page))] : [];
      return [t(textRef('commands.help.title')), ...lines, ...footer].join('\n');
    },
  };
}
