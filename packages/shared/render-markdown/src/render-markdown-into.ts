// Renders a reply into an element that already shows an earlier version of it (a streamed reply, one delta at a
// time) by morphing the DOM (morphdom) instead of replacing innerHTML: the paragraphs, rows and code blocks that
// did not change keep their nodes, so nothing flickers, a selection survives and only the growing text node is
// rewritten.
import morphdom from 'morphdom';
import { type RenderMarkdownOptions, renderMarkdownFragment } from './render-markdown.js';

/**
 * Makes `element`'s children the sanitised rendering of `text`. The element itself (its attributes, its listeners)
 * is left alone; sanitising uses the element's own window unless `options.window` says otherwise.
 */
export function renderMarkdownInto(element: Element, text: string, options: RenderMarkdownOptions = {}): void {
  const window = options.window ?? (element.ownerDocument.defaultView as RenderMarkdownOptions['window']) ?? undefined;
  const fragment = renderMarkdownFragment(text, { ...options, window });
  const next = element.ownerDocument.createElement(element.tagName);
  next.append(element.ownerDocument.importNode(fragment, true));
  morphdom(element, next, { childrenOnly: true });
}
