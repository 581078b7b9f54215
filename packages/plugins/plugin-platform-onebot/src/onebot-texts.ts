// Every fixed text the OneBot platform puts into what she reads, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'onebot.segment.image': '[图片]',
    'onebot.segment.face': '[表情{id}]',
    'onebot.segment.record': '[语音]',
    'onebot.segment.video': '[视频]',
    'onebot.segment.file': '[文件：{name}]',
    'onebot.segment.atAll': '@全体成员',
    'onebot.segment.other': '[{type}]',
  },
  en: {
    'onebot.segment.image': '[image]',
    'onebot.segment.face': '[emoji {id}]',
    'onebot.segment.record': '[voice message]',
    'onebot.segment.video': '[video]',
    'onebot.segment.file': '[file: {name}]',
    'onebot.segment.atAll': '@everyone',
    'onebot.segment.other': '[{type}]',
  },
});
