// The `/` palette (docs/session-protocol.md 「Commands in the page」): the slash commands this account may run, as
// /help lists them (the commands service's level check), with description and usage line in the client's locale.
import { NOBODY } from '@aalis/api-authority';
import { type Locale, translate } from '@aalis/core';
import type { Account, CommandView, ResultOf } from '@aalis/session-client';
import { identityOf, type ServerDeps } from './server-deps.js';

export function commandsListRequest(deps: ServerDeps, account: Account, locale: Locale): ResultOf<'commands.list'> {
  if (!deps.commands.available) return { commands: [] };
  const caller = deps.authority.available
    ? deps.authority.use.callerOf(identityOf(account))
    : { ...NOBODY, isOwner: account.owner };
  const commands: CommandView[] = deps.commands.use.list(caller).map((info) => {
    const usage = info.usage === undefined ? '' : translate(info.usage, locale);
    return {
      name: info.name,
      usage: usage === '' ? `/${info.name}` : `/${info.name} ${usage}`,
      description: translate(info.description, locale),
      level: info.level,
    };
  });
  return { commands };
}
