// Discord message content both ways. Inbound: what a message says as text (her mention removed, other mentions,
// channels, roles and custom emoji as readable names), whether it mentions her, its images and files. Outbound: the
// model's Markdown in Discord's dialect (Discord renders bold, italics, code, quotes, lists, links and headings 1–3;
// tables, images and deeper headings it shows as raw text, so those are rewritten).
import type { InboundFile } from '@aalis/platform-room';

export interface WireUser {
  id?: string;
  username?: string;
  global_name?: string | null;
  bot?: boolean;
}

export interface WireAttachment {
  url?: string;
  filename?: string;
  content_type?: string;
  size?: number;
}

export interface ReadMessage {
  text: string;
  mentionsHer: boolean;
  images: { url: string }[];
  files: InboundFile[];
  stickers: string[];
}

const displayName = (user: WireUser | undefined) => user?.global_name || user?.username || user?.id || '';

/**
 * Reads a message's content; `selfId` is her user id, `ownRoles` the roles Discord made for her (a bot's managed
 * role, which the mention picker offers beside her name: mentioning it addresses her too).
 */
export function readMessage(
  message: {
    content?: string;
    mentions?: WireUser[];
    mention_roles?: string[];
    attachments?: WireAttachment[];
    sticker_items?: { name?: string }[];
  },
  selfId: string,
  channelName: (id: string) => string | undefined,
  ownRoles: ReadonlySet<string> = new Set(),
): ReadMessage {
  const mentions = new Map((message.mentions ?? []).map((user) => [String(user.id), user]));
  let mentionsHer = mentions.has(selfId) || (message.mention_roles ?? []).some((role) => ownRoles.has(String(role)));
  const text = (message.content ?? '')
    .replace(/<@!?(\d+)>/g, (_whole, id: string) => {
      if (id === selfId) {
        mentionsHer = true;
        return '';
      }
      const user = mentions.get(id);
      return `@${user ? displayName(user) : id}`;
    })
    .replace(/<#(\d+)>/g, (_whole, id: string) => `#${channelName(id) ?? id}`)
    .replace(/<@&(\d+)>/g, (_whole, id: string) => {
      if (!ownRoles.has(id)) return `@role:${id}`;
      mentionsHer = true;
      return '';
    })
    .replace(/<a?:([A-Za-z0-9_~]+):\d+>/g, (_whole, name: string) => `:${name}:`)
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const images: { url: string }[] = [];
  const files: InboundFile[] = [];
  for (const attachment of message.attachments ?? []) {
    if (typeof attachment?.url !== 'string') continue;
    const type = attachment.content_type ?? '';
    const name = attachment.filename ?? 'file';
    if (type.startsWith('image/')) images.push({ url: attachment.url });
    else
      files.push({
        type: type.startsWith('audio/') ? 'audio' : 'file',
        url: attachment.url,
        name,
        ...(type ? { mimeType: type } : {}),
      });
  }
  const stickers = (message.sticker_items ?? []).map((sticker) => String(sticker?.name ?? '?'));
  return { text, mentionsHer, images, files, stickers };
}

/** A GFM table row's cells. */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
const isTableSeparator = (line: string) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);

/** The model's Markdown as Discord shows it: tables as aligned code blocks, images as links, headings 4–6 bold. */
export function toDiscordMarkdown(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fenced = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) {
      fenced = !fenced;
      out.push(line);
      continue;
    }
    if (fenced) {
      out.push(line);
      continue;
    }
    const next = lines[index + 1];
    if (line.includes('|') && next !== undefined && isTableSeparator(next)) {
      const rows = [cells(line)];
      index += 1;
      while (index + 1 < lines.length && lines[index + 1]!.includes('|') && lines[index + 1]!.trim() !== '') {
        index += 1;
        rows.push(cells(lines[index]!));
      }
      const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
      const render = (row: string[]) =>
        widths
          .map((width, column) => (row[column] ?? '').padEnd(width))
          .join(' | ')
          .trimEnd();
      out.push('```', render(rows[0]!), widths.map((width) => '-'.repeat(Math.max(width, 1))).join('-+-'));
      for (const row of rows.slice(1)) out.push(render(row));
      out.push('```');
      continue;
    }
    out.push(
      line
        .replace(/^ {0,3}#{4,6}\s+(.+?)\s*#*\s*$/, '**$1**')
        .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_whole, alt: string, url: string) =>
          alt ? `[${alt}](${url})` : url,
        ),
    );
  }
  return out.join('\n');
}
