// Fixed texts every room adapter puts into what she reads, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'room.image.unavailable': '[图片：没能取到]',
    'room.file.unavailable': '[文件 {name}：没能取到]',
    'room.audio.unavailable': '[语音：没能取到]',
    'room.inbound.truncated': '（消息太长，只保留了前 {limit} 字）',
  },
  en: {
    'room.image.unavailable': '[image: could not be fetched]',
    'room.file.unavailable': '[file {name}: could not be fetched]',
    'room.audio.unavailable': '[voice message: could not be fetched]',
    'room.inbound.truncated': '(message too long: only the first {limit} characters were kept)',
  },
});
