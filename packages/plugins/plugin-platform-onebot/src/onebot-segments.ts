// OneBot v11 message segments: parsing what an implementation sends (the array format, or the CQ-code string
// format that older implementations default to) and building what the host sends back.

/** One message segment, `{ type, data }`, as OneBot v11 defines it. */
export interface Segment {
  type: string;
  data: Record<string, unknown>;
}

/** What the host reads out of an inbound message's segments. */
export interface ParsedMessage {
  /** Readable text: text segments verbatim, other segments as short bracketed descriptions. */
  text: string;
  /** `at` segments naming her account. */
  mentionsSelf: boolean;
  /** The message id of a `reply` segment (the message this one quotes). */
  replyTo?: string;
  /** Image URLs (or `file` values when no URL is given), in order. */
  images: string[];
  /** Voice recordings (`record`) and files (`file`) that can be fetched, in order. */
  files: InboundMedia[];
}

/** A record or file segment: where to fetch it (an http(s) URL or an inline base64:// payload) and its name. */
export interface InboundMedia {
  type: 'audio' | 'file';
  url: string;
  name?: string;
}

/** The fetchable source of a record or file segment: its url, or a `file` value that is a URL or inline payload. */
function mediaSource(data: Record<string, unknown>): string | undefined {
  for (const key of ['url', 'file']) {
    const value = data[key];
    if (typeof value === 'string' && /^(https?:\/\/|base64:\/\/)/i.test(value)) return value;
  }
  return undefined;
}

const CQ_CODE = /\[CQ:([a-zA-Z0-9_.-]+)((?:,[^,\]]*)*)\]/g;

/** Decodes the CQ-code escapes of a text part (`&amp;`, `&#91;`, `&#93;`) and of a parameter (also `&#44;`). */
function unescapeCq(value: string): string {
  return value.replace(/&#91;/g, '[').replace(/&#93;/g, ']').replace(/&#44;/g, ',').replace(/&amp;/g, '&');
}

/** Turns a message in either format into segments; anything else becomes no segments. */
export function toSegments(message: unknown): Segment[] {
  if (Array.isArray(message)) {
    return message
      .filter(
        (segment): segment is Segment =>
          typeof segment === 'object' &&
          segment !== null &&
          typeof (segment as Segment).type === 'string' &&
          (typeof (segment as Segment).data === 'object' || (segment as Segment).data === undefined),
      )
      .map((segment) => ({ type: segment.type, data: segment.data ?? {} }));
  }
  if (typeof message !== 'string') return [];
  const segments: Segment[] = [];
  let last = 0;
  for (const match of message.matchAll(CQ_CODE)) {
    if (match.index > last)
      segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last, match.index)) } });
    const data: Record<string, string> = {};
    for (const pair of (match[2] ?? '').split(',').slice(1)) {
      const equals = pair.indexOf('=');
      if (equals > 0) data[pair.slice(0, equals)] = unescapeCq(pair.slice(equals + 1));
    }
    segments.push({ type: match[1] ?? 'unknown', data });
    last = match.index + match[0].length;
  }
  if (last < message.length) segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last)) } });
  return segments;
}

/** Readable placeholders for segments that are not text, so nothing a person sent is silently lost. */
export interface SegmentLabels {
  image: string;
  face: (id: string) => string;
  record: string;
  video: string;
  file: (name: string) => string;
  atAll: string;
  other: (type: string) => string;
}

/**
 * Reads segments: her own `at` is addressing (not text), other `at`s are `@<name or id>`, a `reply` gives
 * `replyTo`, images are collected, and every other kind becomes a bracketed label.
 */
export function parseSegments(
  segments: readonly Segment[],
  selfId: string | undefined,
  labels: SegmentLabels,
): ParsedMessage {
  const parsed: ParsedMessage = { text: '', mentionsSelf: false, images: [], files: [] };
  const parts: string[] = [];
  for (const { type, data } of segments) {
    const text = (key: string) => (data[key] === undefined || data[key] === null ? '' : String(data[key]));
    switch (type) {
      case 'text':
        parts.push(text('text'));
        break;
      case 'at': {
        const qq = text('qq');
        if (selfId !== undefined && qq === selfId) parsed.mentionsSelf = true;
        else if (qq === 'all') parts.push(labels.atAll);
        else parts.push(`@${text('name') || qq}`);
        break;
      }
      case 'reply':
        if (text('id') !== '') parsed.replyTo = text('id');
        break;
      case 'image': {
        const source = text('url') || text('file');
        if (source !== '') parsed.images.push(source);
        else parts.push(labels.image);
        break;
      }
      case 'face':
        parts.push(labels.face(text('id')));
        break;
      case 'record': {
        // A voice message goes to the media plugin (speech to text); without a source it stays a label.
        const source = mediaSource(data);
        if (source) parsed.files.push({ type: 'audio', url: source, name: text('file') || 'voice' });
        else parts.push(labels.record);
        break;
      }
      case 'video':
        parts.push(labels.video);
        break;
      case 'file': {
        const source = mediaSource(data);
        const name = text('name') || text('file');
        if (source)
          parsed.files.push({
            type: 'file',
            url: source,
            ...(name && !/^(https?|base64):/i.test(name) ? { name } : {}),
          });
        else parts.push(labels.file(name));
        break;
      }
      default:
        parts.push(labels.other(type));
    }
  }
  parsed.text = parts.join('').replace(/^\s+/, '').replace(/\s+$/, '');
  return parsed;
}

/**
 * An @-mention of one person written into a reply as OneBot's CQ code, `[CQ:at,qq=<QQ number>]`. Not `qq=all`:
 * text someone got her to repeat must not notify the whole group.
 */
const OUTBOUND_AT = /\[CQ:at,qq=(\d{1,20})\]/g;

/**
 * Text with `at` segments where it carries at CQ codes (the form the string format gives mentions, and that people
 * and personas write). Only mentions: other CQ codes stay text, so a reply cannot make the host send files.
 */
function textAndMentions(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(OUTBOUND_AT)) {
    if (match.index > last) segments.push({ type: 'text', data: { text: text.slice(last, match.index) } });
    segments.push({ type: 'at', data: { qq: match[1]! } });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ type: 'text', data: { text: text.slice(last) } });
  return segments;
}

/**
 * The segments of one outbound piece: an optional quote, the text (its at CQ codes as `at` segments), and images
 * (URL, file path or base64).
 */
export function buildSegments({
  text,
  replyTo,
  images = [],
}: {
  text: string;
  replyTo?: string;
  images?: readonly string[];
}): Segment[] {
  const segments: Segment[] = [];
  if (replyTo !== undefined) segments.push({ type: 'reply', data: { id: replyTo } });
  if (text !== '') segments.push(...textAndMentions(text));
  for (const file of images) segments.push({ type: 'image', data: { file } });
  return segments;
}
