// Fixed texts every room adapter puts into what she reads, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'room.image.unavailable': '[图片:没能取到]',
    'room.inbound.truncated': '(消息太长,只保留了前 {limit} 字)',
  },
  en: {
    'room.image.unavailable': '[image: could not be fetched]',
    'room.inbound.truncated': '(message too long: only the first {limit} characters were kept)',
  },
});
