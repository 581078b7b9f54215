// Coded errors of the terminal platform.
import { defineErrors } from '@aalis/core';

export const cliErrors = defineErrors({
  AALIS_CLI_RELAY_TIMEOUT: {
    en: 'The terminal of another process ({terminal}) did not take a message of turn {turnId} within {timeoutMs} ms: that `aalis` process has probably exited. The reply is kept in the history.',
    'zh-CN':
      '另一个进程的终端({terminal})没有在 {timeoutMs} 毫秒内收下第 {turnId} 轮的消息:那个 aalis 进程多半已经退出。回复仍在历史里。',
  },
  AALIS_CLI_RELAY_FAILED: {
    en: 'A message of turn {turnId} could not be handed to the terminal of another process ({terminal}): {reason}. The reply is kept in the history.',
    'zh-CN': '第 {turnId} 轮的消息没能交给另一个进程的终端({terminal}):{reason}。回复仍在历史里。',
  },
});
