// Every user-visible text of plugin-flow-control (the short notices of what was held back), zh-CN and en.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const flowTexts = defineCatalogue({
  'zh-CN': {
    'flow.notice.cooldown': '我刚回过话，{seconds} 秒后再叫我吧。这条我看到了，记下了。',
    'flow.notice.rate': '消息有点多，我歇一下，{seconds} 秒后再叫我吧。这条我看到了，记下了。',
    'flow.notice.quiet': '现在是安静时段（{from}–{to}），我先不说话。这条我看到了，记下了。',
  },
  en: {
    'flow.notice.cooldown': 'I just answered; ask me again in {seconds} s. I saw this one and kept it.',
    'flow.notice.rate':
      "That's a lot of messages; I'm pausing. Ask me again in {seconds} s. I saw this one and kept it.",
    'flow.notice.quiet': "It's quiet hours ({from}–{to}); I'm not speaking now. I saw this one and kept it.",
  },
});

export const flowErrors = defineErrors({
  AALIS_FLOW_QUIET_HOURS_INVALID: {
    'zh-CN':
      'plugins.flow-control.quietHours.{key} 应为「时：分」（24 小时制，如 23:00），实际为「{received}」。改成这样的时刻，或留空表示没有安静时段。',
    en: "plugins.flow-control.quietHours.{key} must be 'HH:MM' (24-hour, e.g. 23:00); received '{received}'. Write such a time, or leave it empty for no quiet hours.",
  },
});
