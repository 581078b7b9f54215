// /compact: compacts the current session now and replies with the outcome.
import type { CommandDefinition } from '@aalis/api-commands';
import { AalisError, type TextRef, textRef } from '@aalis/core';
import type { CompactionResult, Compactor } from './compactor.js';

export function compactCommand(compactor: Compactor): CommandDefinition {
  return {
    name: 'compact',
    description: textRef('memorySummary.command.compact'),
    level: 1,
    async handler({ sessionId, platform, message, t }) {
      const result = await compactor.compact({ sessionId, trigger: 'manual', platform, venue: message.venue });
      return compactReply(result, t);
    },
  };
}

export function compactReply(result: CompactionResult, t: (text: string | TextRef) => string): TextRef {
  switch (result.status) {
    case 'compacted':
      return textRef('memorySummary.command.compacted', { count: result.messages, chars: result.summary.length });
    case 'failed': {
      const { error } = result;
      const reason = AalisError.isInstance(error)
        ? t(error.text)
        : error instanceof Error
          ? error.message
          : String(error);
      return textRef('memorySummary.command.failed', { reason });
    }
    default:
      return textRef(`memorySummary.command.${result.status}`);
  }
}
