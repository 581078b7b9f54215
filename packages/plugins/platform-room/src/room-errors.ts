// Coded errors shared by the room platform adapters.
import { defineErrors } from '@aalis/core';

export const roomErrors = defineErrors({
  AALIS_ROOM_ATTACHMENT_UNREACHABLE: {
    en: 'An image in the message could not be fetched from {url}: {reason}. The message was kept with a note instead of the image.',
    'zh-CN': '消息里的图片没能从 {url} 取到：{reason}。消息照常保留，图片处换成了说明。',
  },
  AALIS_ROOM_ATTACHMENT_TOO_LARGE: {
    en: 'An image in the message at {url} is larger than {maxBytes} bytes (the adapter’s image.maxBytes). The message was kept with a note instead of the image.',
    'zh-CN': '消息里 {url} 的图片超过 {maxBytes} 字节（适配器的 image.maxBytes）。消息照常保留，图片处换成了说明。',
  },
  AALIS_ROOM_MESSAGE_TOO_LONG: {
    en: 'An inbound message of {length} characters exceeds the limit of {limit} (the adapter’s maxInboundLength); the first {limit} characters were kept with a note.',
    'zh-CN':
      '收到的一条消息有 {length} 字，超过上限 {limit}（适配器的 maxInboundLength）；保留了前 {limit} 字并加了说明。',
  },
});
