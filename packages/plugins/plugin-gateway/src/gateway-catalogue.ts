// Every user-visible text of plugin-gateway (its session fields), zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const gatewayCatalogue = defineCatalogue({
  'zh-CN': {
    'gateway.field.triggerNames': '名字与昵称（群里提到就算叫她）',
    'gateway.field.triggerKeywords': '触发关键词',
    'gateway.field.triggerPoke': '戳一戳叫她',
    'gateway.field.joinChance': '主动插话概率（0 为关闭）',
    'gateway.field.joinIntervalSeconds': '主动插话最短间隔（秒）',
    'gateway.expected.chance': '0 到 1 之间的数',
    'gateway.expected.seconds': '不小于 0 的数',
  },
  en: {
    'gateway.field.triggerNames': 'Names and nicknames (mentioning one in a group addresses her)',
    'gateway.field.triggerKeywords': 'Trigger keywords',
    'gateway.field.triggerPoke': 'A poke addresses her',
    'gateway.field.joinChance': 'Chance of joining unaddressed chatter (0 = off)',
    'gateway.field.joinIntervalSeconds': 'Shortest interval between joins (seconds)',
    'gateway.expected.chance': 'a number from 0 to 1',
    'gateway.expected.seconds': 'a number of at least 0',
  },
});
