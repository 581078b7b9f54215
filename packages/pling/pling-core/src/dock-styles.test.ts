import { describe, expect, it } from 'vitest';
import { DOCK_CSS, DOCK_STYLE_ATTRIBUTE, ensureDockStyles } from './dock-styles.js';

interface FakeElement {
  tagName: string;
  attributes: Map<string, string>;
  textContent: string;
  setAttribute(name: string, value: string): void;
}

/** Just enough of a Document for ensureDockStyles: createElement, head.append, querySelector by attribute. */
function fakeDocument(options: { withHead?: boolean } = {}) {
  const appended: FakeElement[] = [];
  const queries: string[] = [];
  const container = { append: (element: FakeElement) => void appended.push(element) };
  const document = {
    head: options.withHead === false ? null : container,
    documentElement: container,
    createElement(tagName: string): FakeElement {
      const attributes = new Map<string, string>();
      return { tagName, attributes, textContent: '', setAttribute: (name, value) => void attributes.set(name, value) };
    },
    querySelector(selector: string) {
      queries.push(selector);
      return (
        appended.find((element) => element.tagName === 'style' && element.attributes.has(DOCK_STYLE_ATTRIBUTE)) ?? null
      );
    },
  };
  return { document: document as unknown as Document, appended, queries };
}

/**
 * The selectors of every rule, split on the commas that are not inside parentheses; rules inside `@media` count,
 * `@keyframes` (whose name is prefixed `pling-`) do not.
 */
function selectorsOf(css: string): string[] {
  const selectors: string[] = [];
  const rules = css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/@keyframes pling-[\w-]+ \{(?:[^{}]*\{[^}]*\})*\s*\}/g, '')
    .replace(/@media[^{]*\{/g, '');
  for (const [, list] of rules.matchAll(/([^{}]+)\{[^}]*\}/g)) {
    let depth = 0;
    let current = '';
    for (const character of list!) {
      if (character === '(') depth++;
      if (character === ')') depth--;
      if (character === ',' && depth === 0) {
        selectors.push(current.trim());
        current = '';
      } else current += character;
    }
    selectors.push(current.trim());
  }
  return selectors;
}

describe('ensureDockStyles', () => {
  it('adds one <style data-pling-style> with DOCK_CSS, however often it is called', () => {
    const { document, appended, queries } = fakeDocument();
    ensureDockStyles(document);
    ensureDockStyles(document);
    ensureDockStyles(document);
    expect(appended).toHaveLength(1);
    expect(appended[0]!.tagName).toBe('style');
    expect([...appended[0]!.attributes]).toEqual([[DOCK_STYLE_ATTRIBUTE, '']]);
    expect(appended[0]!.textContent).toBe(DOCK_CSS);
    expect(queries).toEqual(Array(3).fill('style[data-pling-style]'));
  });

  it('falls back to the document element without a <head>, and does nothing without a document', () => {
    const { document, appended } = fakeDocument({ withHead: false });
    ensureDockStyles(document);
    expect(appended).toHaveLength(1);
    expect(() => ensureDockStyles(undefined)).not.toThrow();
    expect(() => ensureDockStyles(null)).not.toThrow();
  });
});

describe('DOCK_CSS', () => {
  it('scopes every rule to the dock root', () => {
    const selectors = selectorsOf(DOCK_CSS);
    expect(selectors.length).toBeGreaterThan(30);
    for (const selector of selectors) expect(selector.startsWith('[data-pling="dock"]'), selector).toBe(true);
  });

  it('reads each colour from a host-overridable custom property and never sets one itself', () => {
    for (const name of ['bg', 'fg', 'muted', 'border', 'accent', 'danger', 'user', 'assistant']) {
      expect(DOCK_CSS, name).toContain(`var(--pling-${name}, `);
      expect(DOCK_CSS, name).not.toMatch(new RegExp(`--pling-${name}\\s*:`));
    }
  });

  it('styles both placements', () => {
    expect(DOCK_CSS).toMatch(/\[data-placement="fixed"\] \{[^}]*position: fixed;/);
    expect(DOCK_CSS).toMatch(/\[data-placement="inline"\] \{[^}]*width: 100%;/);
  });
});
