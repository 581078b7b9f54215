// Pure formatters of what the terminal shows: tool-call lines, the reasoning summary, notices, the usage line.
import { type TokenUsageEvent, usageTag } from '@aalis/api-agent';

export { type UsageTag, usageTag } from '@aalis/api-agent';

import type { TextRef } from '@aalis/core';
import type { OutgoingKind } from '@aalis/schema-message';
import type { Style } from './style.js';

export type Translate = (text: string | TextRef) => string;

/** Whitespace collapsed to single spaces, cut to `max` characters with an ellipsis. */
export function excerpt(text: string, max: number): string {
  const characters = Array.from(text.replace(/\s+/g, ' ').trim());
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : characters.join('');
}

export type ToolCallState = 'streaming' | 'running' | 'done' | 'failed';

export interface ToolCallView {
  callId: string;
  name: string;
  /** The arguments text as streamed so far (or the final arguments). */
  args: string;
  state: ToolCallState;
  /** The result text (done or failed). */
  result?: string;
  durationMs?: number;
}

const ARGS_MAX = 60;
const RESULT_MAX = 80;

/** One line per tool call: `⚙ name {args} …` while it streams or runs, `✓`/`✗ … → result · 12 ms` at the end. */
export function formatToolLine(call: ToolCallView, style: Style): string {
  const args = call.args.trim() === '' ? '' : ` ${excerpt(call.args, ARGS_MAX)}`;
  const head = `${call.name || '…'}${args}`;
  switch (call.state) {
    case 'streaming':
      return style.dim(`⚙ ${head}`);
    case 'running':
      return `${style.cyan('⚙')} ${head} ${style.dim('…')}`;
    case 'done':
      return `${style.green('✓')} ${head} ${style.dim(`→ ${excerpt(call.result ?? '', RESULT_MAX)} · ${call.durationMs ?? 0} ms`)}`;
    case 'failed':
      return `${style.red('✗')} ${head} ${style.red(`→ ${excerpt(call.result ?? '', RESULT_MAX)}`)}${style.dim(` · ${call.durationMs ?? 0} ms`)}`;
  }
}

/** An outbound notice or command reply, coloured by kind (the agent already wrote 「[错误]」/「[系统]」 into it). */
export function formatNotice(kind: OutgoingKind, content: string, style: Style): string[] {
  const lines = content.split(/\r?\n/);
  if (kind === 'error') return lines.map((line) => style.red(line));
  if (kind === 'system') return lines.map((line) => style.yellow(line));
  return lines;
}

/** The token-usage line: used/window, share, tag, and the non-zero parts of the breakdown by their labels. */
export function formatUsageLine(event: TokenUsageEvent, t: Translate): string {
  const parts = event.parts
    .filter((part) => part.tokens > 0)
    .map((part) => `${t(part.label)} ${part.tokens}`)
    .concat(`${t({ key: 'cli.usage.reserve' })} ${event.breakdown.reservedForReply}`);
  return t({
    key: 'cli.usage.line',
    params: {
      tag: usageTag(event.usageRatio),
      used: event.used,
      window: event.contextWindow,
      percent: (event.usageRatio * 100).toFixed(1),
      trimmed: event.trimmed ? t({ key: 'cli.usage.trimmed' }) : '',
      parts: parts.join(' · '),
    },
  });
}
