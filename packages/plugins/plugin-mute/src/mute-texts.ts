// Every user-visible text of plugin-mute, zh-CN and en, and its coded errors.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const muteTexts = defineCatalogue({
  'zh-CN': {
    'mute.command.mute': '禁言：停下在跑的一轮、放掉排队的；禁言期间她看消息（留作上下文）但不说话',
    'mute.command.mute.usage': '[时长，如 30m、2h、1d；不写则到 /unmute 为止]',
    'mute.command.unmute': '解除禁言',
    'mute.muted.until': '好的，我先不说话了，{until} 之前只看不说。要我早点开口请发 /unmute。',
    'mute.muted.forever': '好的，我先不说话了，只看不说，直到有人发 /unmute。',
    'mute.unmuted': '禁言已解除，我可以说话了。',
    'mute.notMuted': '现在没有禁言。',
  },
  en: {
    'mute.command.mute':
      'Mute her: stops the running turn and releases what waits; while muted she reads (kept as context) and does not speak',
    'mute.command.mute.usage': '[duration, e.g. 30m, 2h, 1d; none = until /unmute]',
    'mute.command.unmute': 'Lift the mute',
    'mute.muted.until':
      "All right, I'll keep quiet until {until}: reading, not speaking. Send /unmute to let me speak earlier.",
    'mute.muted.forever': "All right, I'll keep quiet: reading, not speaking, until someone sends /unmute.",
    'mute.unmuted': 'The mute is lifted; I can speak again.',
    'mute.notMuted': 'She is not muted.',
  },
});

export const muteErrors = defineErrors({
  AALIS_MUTE_DURATION_INVALID: {
    'zh-CN':
      '时长「{text}」看不懂。写一个数加单位：s/秒、m/分钟、h/小时、d/天，如 30m、2h、1天；不写时长则禁言到 /unmute。',
    en: 'The duration "{text}" is not understood. Write a number and a unit: s, m, h or d (e.g. 30m, 2h, 1d); without a duration the mute lasts until /unmute.',
  },
});
