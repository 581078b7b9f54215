// Fixed texts of /help and /clear (zh-CN and en).
import { defineCatalogue, defineErrors } from '@aalis/core';

export const commandTexts = defineCatalogue({
  'zh-CN': {
    'commands.help.description': '列出你能用的指令；/help <指令名> 看一条指令的用法',
    'commands.help.usage': '[指令名] [-p <页码>]',
    'commands.help.title': '可用的指令：',
    'commands.help.empty': '没有你能用的指令。',
    'commands.help.detail': '/{name} {usage}\n{description}\n需要的权限：{level}',
    'commands.clear.description': '清除本会话的消息历史；-t <类型> 只清某一类（如 -t vector），逗号分隔多个',
    'commands.clear.usage': '[-t <类型>]',
    'commands.clear.history': '已清除本会话的消息历史。',
    'commands.clear.types': '已清除：{types}。',
    'commands.clear.unhandled': '没有插件处理这些类型：{types}。',
    'commands.clear.noMemory': '没有记忆服务，消息历史无法清除。请启用提供 memory 服务的插件。',
  },
  en: {
    'commands.help.description': 'Lists the commands you can use; /help <name> shows how to use one',
    'commands.help.usage': '[name] [-p <page>]',
    'commands.help.title': 'Commands you can use:',
    'commands.help.empty': 'There is no command you can use.',
    'commands.help.detail': '/{name} {usage}\n{description}\nLevel needed: {level}',
    'commands.clear.description':
      "Clears this session's message history; -t <type> clears one kind only (e.g. -t vector), comma-separated for several",
    'commands.clear.usage': '[-t <type>]',
    'commands.clear.history': "This session's message history is cleared.",
    'commands.clear.types': 'Cleared: {types}.',
    'commands.clear.unhandled': 'No plugin handles these types: {types}.',
    'commands.clear.noMemory':
      'There is no memory service, so the message history cannot be cleared. Enable a plugin that provides memory.',
  },
});

export const clearErrors = defineErrors({
  AALIS_COMMAND_CLEAR_ARGUMENT: {
    en: '/clear does not take "{given}", so nothing was cleared. Send /clear to clear the message history, or /clear -t <type> for one kind only (e.g. /clear -t vector).',
    'zh-CN':
      '/clear 不认「{given}」，什么也没有清。清消息历史发 /clear；只清某一类发 /clear -t <类型>（如 /clear -t vector）。',
  },
});
