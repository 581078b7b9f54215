// `sessions.export` (docs/session-protocol.md 「Export」): the whole archive of a session as Markdown (for people) or
// JSON (the timeline with every version and the stored messages, attachment bytes left out), in the client's locale.
import { type Locale, translate } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import type { SessionExport, SessionSummary, TimelineEntry, TimelineInput, TimelineTurn } from '@aalis/session-client';
import { badParam } from './params.js';
import type { Handler } from './request-handler.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession, summaryFor } from './session-access.js';
import { attachVersions, buildTimelineEntries } from './timeline-builder.js';
import { attachmentUrl } from './timeline-snapshot.js';
import './server-texts.js';

/** Most stored messages one export reads (every size bounded). */
export const MAX_EXPORT_MESSAGES = 50_000;

export const exportRequest: Handler<'sessions.export'> = async (deps, account, params, { type }) => {
  const locale = deps.locale;
  const session = await accessibleSession(deps, account, params.sessionId, type);
  const format = params.format;
  if (format !== 'markdown' && format !== 'json') {
    badParam(type, 'format', 'oneOf', format, { values: '"markdown", "json"' });
  }
  const messages = deps.memory.available ? await deps.memory.use.readAll(session.id) : [];
  if (messages.length > MAX_EXPORT_MESSAGES) {
    throw serverErrors.AALIS_WEBUI_EXPORT_TOO_LARGE({ count: messages.length, limit: MAX_EXPORT_MESSAGES });
  }
  const summary = await summaryFor(deps, account, session);
  const entries = attachVersions(
    buildTimelineEntries(messages, {
      room: session.kind === 'room',
      rawText: (id) => deps.rawTexts.get(id),
      durationOf: (callId) => deps.durations.get(callId),
      attachmentUrl: (messageId, index) => attachmentUrl(session.id, messageId, index),
    }),
  );
  const base = fileBase(summary.title ?? session.id);
  if (format === 'json') {
    const exported: SessionExport = {
      format: 'aalis-session',
      version: 1,
      session: summary,
      exportedAt: Date.now(),
      timeline: entries,
      messages: messages.map(withoutBytes),
    };
    return { filename: `${base}.json`, mimeType: 'application/json', content: JSON.stringify(exported, null, 2) };
  }
  return {
    filename: `${base}.md`,
    mimeType: 'text/markdown; charset=utf-8',
    content: markdownOf(summary, entries, locale),
  };
};

/** A file name from the title: no path separators or control characters, at most 80 characters. */
function fileBase(title: string): string {
  const cleaned = title
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(cleaned).slice(0, 80).join('') || 'session';
}

/** The stored message with attachment bytes left out (a reference to the served URL stays in the timeline). */
function withoutBytes(message: Message): Message {
  if (!message.attachments) return message;
  return {
    ...message,
    attachments: message.attachments.map(({ data: _data, ...attachment }) =>
      attachment.url?.startsWith('data:') ? { ...attachment, url: undefined } : attachment,
    ),
  };
}

function markdownOf(session: SessionSummary, entries: readonly TimelineEntry[], locale: Locale): string {
  const t = (key: string, params?: Record<string, string | number>) =>
    translate({ key: `sessionServer.export.${key}`, ...(params ? { params } : {}) }, locale);
  const time = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 16);
  const lines: string[] = [`# ${session.title ?? session.id}`, '', `_${t('exported', { at: time(Date.now()) })}_`, ''];
  const quote = (text: string) =>
    text
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length + 1)));
    return `${ticks}\n${text}\n${ticks}`;
  };
  const input = (item: TimelineInput) => {
    const who = item.sender.displayName ?? item.sender.userId ?? item.sender.platform;
    const attached = item.attachments.map((attachment) => `📎 ${attachment.name ?? attachment.type}`);
    return [`**${who}** · ${time(item.at)}`, '', item.text, ...(attached.length ? ['', attached.join(', ')] : [])];
  };
  const turn = (entry: TimelineTurn): string[] => {
    const out: string[] = [];
    for (const item of entry.inputs) out.push(...input(item), '');
    for (const item of entry.items) {
      if (item.kind === 'text') out.push(`**${t('her')}**`, '', item.text, '');
      else if (item.kind === 'tool') {
        out.push(`${t('toolCall', { name: item.name })}`, '', fence(item.arguments), '');
        if (item.result !== undefined) out.push(`${t('toolResult')}`, '', fence(item.result), '');
      } else if (item.kind === 'input') out.push(...input(item.input), '');
      else out.push(`_${item.texts?.[locale] ?? item.text}_`, '');
    }
    if (entry.outcome && entry.outcome !== 'replied') {
      // The reason in the reader's language when the host kept it in both (a coded error).
      const reason = entry.errors?.[locale] ?? entry.error;
      const colon = locale === 'zh-CN' ? '：' : ': ';
      out.push(`_${t(`outcome.${entry.outcome}`)}${reason ? `${colon}${reason}` : ''}_`, '');
    }
    return out;
  };
  for (const entry of entries) {
    if (entry.kind === 'turn') {
      for (const [index, version] of (entry.previousVersions ?? []).entries()) {
        const replaced = [`**${t('superseded', { n: index + 1 })}**`, '', ...version.flatMap(turn)];
        lines.push(quote(replaced.join('\n').trimEnd()), '');
      }
      if (entry.superseded)
        lines.push(quote([`**${t('supersededAlone')}**`, '', ...turn(entry)].join('\n').trimEnd()), '');
      else lines.push(...turn(entry));
      lines.push('---', '');
    } else if (entry.kind === 'divider') {
      lines.push(`_${t('divider')}_`, '', ...(entry.summary ? [quote(entry.summary), ''] : []), '---', '');
    } else if (entry.kind === 'command') {
      lines.push(fence(entry.text), '', ...(entry.reply ? [entry.reply, ''] : []), '---', '');
    } else if (entry.kind === 'released') {
      lines.push(...input(entry.input), '', `_${t('released')}_`, '', '---', '');
    } else {
      lines.push(`_${entry.texts?.[locale] ?? entry.text}_`, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
