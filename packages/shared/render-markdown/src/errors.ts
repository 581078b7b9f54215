// The package's one coded error, worded in zh-CN and en (the message is English; localized() gives either).

export type RenderMarkdownErrorCode = 'RENDER_MARKDOWN_NO_DOM';

const TEXTS: Record<RenderMarkdownErrorCode, { 'zh-CN': string; en: string }> = {
  RENDER_MARKDOWN_NO_DOM: {
    'zh-CN': '渲染 Markdown 需要 DOM 来清理 HTML：在浏览器里调用，或在 Node 里传入 { window }（例如 jsdom 的 window）',
    en: 'Rendering Markdown needs a DOM to sanitise the HTML: call it in a browser, or pass { window } in Node (e.g. a jsdom window)',
  },
};

export class RenderMarkdownError extends Error {
  override readonly name = 'RenderMarkdownError';
  constructor(readonly code: RenderMarkdownErrorCode) {
    super(`${code}: ${TEXTS[code].en}`);
  }

  localized(locale: 'zh-CN' | 'en'): string {
    return `${this.code}: ${TEXTS[this.code][locale]}`;
  }
}
