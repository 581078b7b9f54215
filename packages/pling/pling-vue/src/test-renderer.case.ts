// Test-only: a tiny Vue renderer onto plain objects, so components mount, update and unmount in Node without a
// DOM. Elements keep their attributes, DOM properties and listeners; `find`/`findAll` query by data-pling.
import { type Component, createRenderer, nextTick, type RendererOptions } from 'vue';

export interface TestNode {
  kind: 'element' | 'text' | 'comment';
  tag: string;
  text: string;
  attributes: Record<string, string>;
  properties: Record<string, unknown>;
  listeners: Record<string, (event: unknown) => void>;
  children: TestNode[];
  parent: TestNode | null;
}

function node(kind: TestNode['kind'], tag: string, text = ''): TestNode {
  return { kind, tag, text, attributes: {}, properties: {}, listeners: {}, children: [], parent: null };
}

function detach(child: TestNode): void {
  const siblings = child.parent?.children;
  if (siblings) siblings.splice(siblings.indexOf(child), 1);
  child.parent = null;
}

const options: RendererOptions<TestNode, TestNode> = {
  createElement: (tag) => node('element', tag),
  createText: (text) => node('text', '#text', text),
  createComment: (text) => node('comment', '#comment', text),
  setText: (target, text) => {
    target.text = text;
  },
  setElementText: (element, text) => {
    for (const child of [...element.children]) detach(child);
    if (text !== '') options.insert(node('text', '#text', text), element, null);
  },
  insert: (child, parent, anchor) => {
    detach(child);
    const at = anchor ? parent.children.indexOf(anchor) : -1;
    if (at < 0) parent.children.push(child);
    else parent.children.splice(at, 0, child);
    child.parent = parent;
  },
  remove: detach,
  parentNode: (child) => child.parent,
  nextSibling: (child) => {
    const siblings = child.parent?.children ?? [];
    return siblings[siblings.indexOf(child) + 1] ?? null;
  },
  patchProp: (element, key, _previous, next) => {
    if (/^on[A-Z]/.test(key)) {
      const name = key.slice(2).toLowerCase();
      if (typeof next === 'function') element.listeners[name] = next as (event: unknown) => void;
      else delete element.listeners[name];
    } else if (key === 'value' || key === 'disabled') {
      element.properties[key] = next;
    } else if (next === undefined || next === null || next === false) {
      delete element.attributes[key];
    } else {
      element.attributes[key] = Array.isArray(next) ? next.join(' ') : String(next);
    }
  },
};

const { createApp } = createRenderer(options);

export function textOf(target: TestNode): string {
  if (target.kind === 'text') return target.text;
  return target.children.map(textOf).join('');
}

export function findAll(root: TestNode, name: string): TestNode[] {
  const found: TestNode[] = [];
  const visit = (current: TestNode) => {
    if (current.attributes['data-pling'] === name) found.push(current);
    for (const child of current.children) visit(child);
  };
  visit(root);
  return found;
}

export function find(root: TestNode, name: string): TestNode | undefined {
  return findAll(root, name)[0];
}

/** Calls the element's listener with a minimal event (preventDefault and target included). */
export async function trigger(target: TestNode, name: string, event: Record<string, unknown> = {}): Promise<void> {
  const listener = target.listeners[name];
  if (!listener) throw new Error(`no ${name} listener on <${target.tag} ${JSON.stringify(target.attributes)}>`);
  listener({ preventDefault: () => {}, target: { value: target.properties.value }, ...event });
  await nextTick();
}

export interface Mounted {
  root: TestNode;
  app: ReturnType<typeof createApp>;
  unmount(): void;
}

/** Mounts `component` with `props`; `setup(app)` may install plugins before mounting. */
export function mount(
  component: Component,
  props: Record<string, unknown> = {},
  setup?: (app: ReturnType<typeof createApp>) => void,
): Mounted {
  const root = node('element', 'root');
  const app = createApp(component, props);
  app.config.warnHandler = (message) => {
    throw new Error(`Vue warning: ${message}`);
  };
  setup?.(app);
  app.mount(root);
  return { root, app, unmount: () => app.unmount() };
}
