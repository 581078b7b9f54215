// Paging for list commands: the -p <n> convention and one pure page cut.
import { defineCatalogue, type TextRef, textRef } from '@aalis/core';
import { commandErrors } from './command-errors.js';

export interface Page<T> {
  items: T[];
  /** 1-based. */
  page: number;
  /** At least 1 (an empty list has one empty page). */
  pages: number;
  total: number;
}

/** Default page size of list commands. */
export const DEFAULT_PAGE_SIZE = 10;

/**
 * Cuts one page out of `items`. Throws AALIS_COMMAND_PAGE_INVALID when `page` is not an integer ≥ 1 and
 * AALIS_COMMAND_PAGE_OUT_OF_RANGE when it is past the last page.
 */
export function paginate<T>({
  items,
  page = 1,
  pageSize = DEFAULT_PAGE_SIZE,
}: {
  items: readonly T[];
  page?: number;
  pageSize?: number;
}): Page<T> {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`paginate: pageSize must be an integer ≥ 1, received ${pageSize}.`);
  }
  if (!Number.isSafeInteger(page) || page < 1) throw commandErrors.AALIS_COMMAND_PAGE_INVALID({ page: String(page) });
  const total = items.length;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (page > pages) throw commandErrors.AALIS_COMMAND_PAGE_OUT_OF_RANGE({ page, pages });
  return { items: items.slice((page - 1) * pageSize, page * pageSize), page, pages, total };
}

/**
 * The page a command asked for through `-p <n>` (or `--page <n>`); 1 when absent. Throws
 * AALIS_COMMAND_PAGE_INVALID for anything but a whole number ≥ 1 (including a bare `-p`).
 */
export function pageFromFlags(flags: Readonly<Record<string, string | true>>): number {
  const value = flags.p ?? flags.page;
  if (value === undefined) return 1;
  const text = value === true ? '' : value.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1) throw commandErrors.AALIS_COMMAND_PAGE_INVALID({ page: text });
  return Number(text);
}

defineCatalogue({
  'zh-CN': { 'commands.pageFooter': '第 {page}/{pages} 页，共 {total} 条；-p <页码> 翻页' },
  en: { 'commands.pageFooter': 'Page {page}/{pages}, {total} in all; -p <n> for another page' },
});

/** The footer of a paged list: 「第 1/3 页,共 25 条,-p <n> 翻页」. */
export function pageFooter(page: Pick<Page<unknown>, 'page' | 'pages' | 'total'>): TextRef {
  return textRef('commands.pageFooter', { page: page.page, pages: page.pages, total: page.total });
}
