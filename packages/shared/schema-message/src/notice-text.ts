// A text the host writes once for every reader (a [错误]/[系统] notice, a delivery failure's note), kept as its
// catalogue key and parameters beside the rendering in the host's language, so a reader in another language (the
// WebUI in English on a zh-CN host) is shown it in theirs.

/** A catalogue text; a parameter may be a catalogue text itself (rendered in the same language). */
export interface NoticeText {
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number | NoticeText>>;
}

/** A catalogue text without nested texts: what a catalogue's translate takes. */
export interface FlatText {
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** Renders a notice text with a catalogue's translate, its nested texts first. */
export function renderNoticeText(text: NoticeText, translate: (text: FlatText) => string): string {
  if (text.params === undefined) return translate({ key: text.key });
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.params)) {
    params[name] = typeof value === 'object' ? renderNoticeText(value, translate) : value;
  }
  return translate({ key: text.key, params });
}

/** Whether a stored value (metadata read back from storage) is a notice text. */
export function isNoticeText(value: unknown): value is NoticeText {
  if (typeof value !== 'object' || value === null) return false;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== 'string' || key === '') return false;
  if (params === undefined) return true;
  if (typeof params !== 'object' || params === null) return false;
  return Object.values(params).every(
    (param) => typeof param === 'string' || typeof param === 'number' || isNoticeText(param),
  );
}
