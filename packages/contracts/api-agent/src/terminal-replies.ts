// Replies handed to terminals across processes (docs/decisions/terminal-relay.md): a line typed into an `aalis chat` /
// `aalis start` names its terminal (WellKnownMetadataKeys.Terminal: that process's lease holder id); the process that
// runs its turn, whichever it is, hands the turn's messages and tool lines to the terminal's hand-over queue
// (TERMINAL_QUEUE_PREFIX + terminal), which the terminal takes and prints as its own.
import type { ToolExecuteEvent } from '@aalis/api-tools';
import { defineErrors } from '@aalis/core';
import type { OutgoingMessage } from '@aalis/schema-message';

/** The hand-over queue of a terminal is this prefix followed by the terminal's id. */
export const TERMINAL_QUEUE_PREFIX = 'platform:cli:';

/** The hand-over queue of `terminal`: what its process takes, what a turn's runner puts to. */
export const terminalQueueName = (terminal: string): string => `${TERMINAL_QUEUE_PREFIX}${terminal}`;

/** One item of a terminal's queue (JSON): a message of a turn, or one of its tool lines. */
export type TerminalItem = { type: 'message'; message: OutgoingMessage } | { type: 'tool'; event: ToolExecuteEvent };

export const terminalErrors = defineErrors({
  AALIS_CLI_RELAY_TIMEOUT: {
    en: 'The terminal of another process ({terminal}) did not take a message of turn {turnId} within {timeoutMs} ms: that `aalis` process has probably exited. The reply is kept in the history.',
    'zh-CN':
      '另一个进程的终端（{terminal}）没有在 {timeoutMs} 毫秒内收下第 {turnId} 轮的消息：那个 aalis 进程多半已经退出。回复仍在历史里。',
  },
  AALIS_CLI_RELAY_FAILED: {
    en: 'A message of turn {turnId} could not be handed to the terminal of another process ({terminal}): {reason}. The reply is kept in the history.',
    'zh-CN': '第 {turnId} 轮的消息没能交给另一个进程的终端（{terminal}）：{reason}。回复仍在历史里。',
  },
});
