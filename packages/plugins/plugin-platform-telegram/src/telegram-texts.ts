// Every fixed text the Telegram platform puts into what she reads, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'telegram.sticker': '[贴纸{emoji}]',
    'telegram.document': '[文件：{name}]',
    'telegram.voice': '[语音]',
    'telegram.video': '[视频]',
    'telegram.location': '[位置]',
    'telegram.start': '[开始对话]',
  },
  en: {
    'telegram.sticker': '[sticker {emoji}]',
    'telegram.document': '[file: {name}]',
    'telegram.voice': '[voice message]',
    'telegram.video': '[video]',
    'telegram.location': '[location]',
    'telegram.start': '[started the conversation]',
  },
});
