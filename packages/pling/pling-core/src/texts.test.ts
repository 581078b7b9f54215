import type { Locale, ToolExecutionContext } from '@plingjs/agent';
import { describe, expect, it } from 'vitest';
import { defineAction } from './action.js';
import { DOCK_TEXTS } from './dock-texts.js';
import { createPage } from './page.js';
import { toRuntimeOptions } from './runtime-options.js';
import { PAGE_TEXTS, pageTexts } from './texts.js';

/** Every leaf of a text table, by dotted key: strings, and functions called with sample arguments. */
function leaves(table: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(table)) {
    const path = prefix + key;
    if (typeof value === 'object' && value !== null) {
      for (const [inner, text] of leaves(value, `${path}.`)) found.set(inner, text);
    } else if (typeof value === 'function') {
      found.set(path, String((value as (...args: unknown[]) => unknown)('a', 'b')));
    } else {
      found.set(path, value as string);
    }
  }
  return found;
}

const context = (): ToolExecutionContext => ({
  signal: new AbortController().signal,
  turn: 1,
  sessionId: 's',
  callId: 'c1',
});

function page() {
  const result = createPage({ title: 'Orders' });
  result.state('n', () => 1);
  const remove = result.register(
    defineAction({ id: 'gone', description: 'Goes', parameters: { type: 'object' }, handler: () => 1, danger: true }),
  );
  return { page: result, remove };
}

describe('page text table (zh-CN and en)', () => {
  it('every key has a non-empty text in both languages', () => {
    const zh = leaves(PAGE_TEXTS['zh-CN']);
    const en = leaves(PAGE_TEXTS.en);
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
    expect(zh.size).toBeGreaterThan(20);
    for (const [key, text] of [...zh, ...en]) expect(text.trim(), key).not.toBe('');
    expect(Object.keys(PAGE_TEXTS).sort()).toEqual(['en', 'zh-CN']);
    expect(pageTexts(undefined)).toBe(PAGE_TEXTS['zh-CN']);
  });

  it.each<[Locale | undefined, string, RegExp, RegExp]>([
    [
      undefined,
      '# 当前页面：Orders\n\n## 状态\n- n: 1\n\n## 动作\n- gone（危险）: Goes',
      /当前页面没有 gone 动作/,
      /人工接手/,
    ],
    ['zh-CN', '# 当前页面：Orders\n\n## 状态', /当前页面没有 gone 动作；请使用页面现在列出的动作/, /人工接手/],
    [
      'en',
      '# Current page: Orders\n\n## State\n- n: 1\n\n## Actions\n- gone (danger): Goes',
      /gone is not available on the current page; use the actions/,
      /Ask a person/,
    ],
  ])(
    'toRuntimeOptions renders in the config locale (%s): snapshot heading, errors, built-in handoff',
    async (locale, heading, unavailable, handoff) => {
      const { page: current, remove } = page();
      const options = toRuntimeOptions(current, { config: locale ? { locale } : {} });
      expect(options.buildSystemPrompt().startsWith(heading)).toBe(true);
      const [gone, builtIn] = options.tools();
      expect(builtIn!.description).toMatch(handoff);
      remove();
      const failure = await Promise.resolve(gone!.execute({}, context())).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ACTION_UNAVAILABLE' });
      expect((failure as Error).message).toMatch(/^ACTION_UNAVAILABLE: /);
      expect((failure as Error).message).toMatch(unavailable);
    },
  );

  it('createPage({ locale }) words the page errors and its default snapshot', () => {
    const en = createPage({ locale: 'en' });
    en.state('a', () => 1);
    expect(() => en.state('a', () => 2)).toThrow(/^DUPLICATE_STATE: State a is registered already; call its remover/);
    expect(en.snapshot()).toMatch(/^# Current page/);
    expect(en.snapshot('zh-CN')).toMatch(/^# 当前页面/);
    const zh = createPage();
    zh.state('a', () => 1);
    expect(() => zh.state('a', () => 2)).toThrow(/^DUPLICATE_STATE: 状态 a 已注册；请先调用它的移除函数/);
    expect(zh.locale).toBe('zh-CN');
  });
});

describe('dock texts in English', () => {
  it('read right at 1 and at 2: "1 message, 1 tool", "2 messages, 2 tools"', () => {
    for (const [key, value] of Object.entries(DOCK_TEXTS.en)) {
      if (typeof value !== 'function') continue;
      const text = String((value as (...args: unknown[]) => unknown)(1, 'model', 1, 1));
      expect(text, key).not.toMatch(/\b1 [a-z]+s\b/);
    }
    expect(DOCK_TEXTS.en.traceCall(3, 'm', 1, 1)).toBe('#3 m: 1 message, 1 tool');
    expect(DOCK_TEXTS.en.traceCall(3, 'm', 2, 2)).toBe('#3 m: 2 messages, 2 tools');
  });
});
