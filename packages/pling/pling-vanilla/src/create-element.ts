// A small element factory for the DOM dock: a tag, a class (always `pling-` prefixed by the caller), attributes
// and children, so building the dock's skeleton stays declarative. Text is always set as text, never as HTML.

export type Child = Node | string;

export function createElement<Tag extends keyof HTMLElementTagNameMap>(
  document: Document,
  tag: Tag,
  attributes: Record<string, string> = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

/** Sets a text node's data only when it differs (a streamed reply updates one node per delta). */
export function setText(node: Text, text: string): void {
  if (node.data !== text) node.data = text;
}

/** Sets or removes an attribute; `undefined` removes it. Writes only on change. */
export function setAttribute(element: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}
